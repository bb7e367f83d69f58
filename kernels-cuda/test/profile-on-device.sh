#!/usr/bin/env bash
# On the GPU host: kernel-only throughput, an Nsight Compute profile of the level-2 entry points,
# and the compute-sanitizer checks, each logged under $OUT (default ./out).
#
# Usage: profile-on-device.sh <kernel_bench binary> [steps...]
#   steps: bench (default), ncu, memcheck, racecheck,
#          keyed (the key cache: sign_ / verify_ against sign_keyed_ / verify_keyed_, 10,000 tasks,
#          1 key, 64 keys, 64 keys half cached, alternated), keyed-memcheck, keyed-racecheck
#          (the sanitizers on expand_sk_, expand_pk_, sign_keyed_, verify_keyed_ of every set)
# Build the binary where nvcc is (no GPU needed):
#   nvcc -std=c++17 -O3 -lineinfo -arch=sm_90 -Ikernels-cuda/include -o kernel_bench kernels-cuda/test/kernel_bench.cu
set -uo pipefail
bench=$(readlink -f "${1:?usage: profile-on-device.sh <kernel_bench> [steps]}"); shift
out=${OUT:-./out}
mkdir -p "$out"
[ $# -gt 0 ] || set -- bench
for step in "$@"; do
    case $step in
        bench)
            "$bench" 10000 10 all 1 2>&1 | tee "$out/kernel-bench-10k.log"
            "$bench" 10000 10 all 4 2>&1 | tee "$out/kernel-bench-10k-4streams.log"
            "$bench" 100000 5 all 1 2>&1 | tee "$out/kernel-bench-100k.log" ;;
        ncu)
            for e in keygen_mldsa44 sign_mldsa44 verify_mldsa44; do
                timeout 180 ncu --section SpeedOfLight --section Occupancy --section LaunchStats \
                    --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
                    --section MemoryWorkloadAnalysis -k "regex:^${e}\$" --launch-skip 2 --launch-count 1 \
                    "$bench" 10000 1 "$e" 1 2>&1
            done > "$out/ncu.log"
            grep -E "^  [a-z_]+[0-9]+ |Duration|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Issued Warp|No Eligible|Stall|L1/TEX Hit|L2 Hit|Executed Ipc" "$out/ncu.log" | head -80 ;;
        memcheck)
            timeout 300 compute-sanitizer --tool memcheck --leak-check full "$bench" 200 1 all 2 2>&1 | tail -5 | tee "$out/memcheck.log" ;;
        racecheck)
            timeout 300 compute-sanitizer --tool racecheck --racecheck-report all "$bench" 40 1 all 1 2>&1 | tail -5 | tee "$out/racecheck.log" ;;
        keyed)
            "$bench" 10000 10 keyed 1 2>&1 | tee "$out/kernel-bench-keyed-10k.log" ;;
        keyed-memcheck | keyed-racecheck)
            # One run per set (a timeout costs one set): memcheck on 96 tasks over 64 keys and 2
            # streams (every key used, keyOf read from an offset), racecheck on 16.
            tool=${step#keyed-}
            for set in dilithium2 dilithium3 dilithium5 mldsa44 mldsa65 mldsa87; do
                log=$out/keyed-$tool-$set.log
                if [ "$tool" = memcheck ]; then
                    timeout 200 compute-sanitizer --tool memcheck --leak-check full "$bench" 96 1 "keyed_$set" 2 > "$log" 2>&1
                else
                    timeout 200 compute-sanitizer --tool racecheck --racecheck-report all "$bench" 16 1 "keyed_$set" 1 > "$log" 2>&1
                fi
                echo "$set $tool (exit $?): $(grep -cE '^(sign|verify|expand)' "$log") lines; $(grep -E 'FAILED|differ|ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tr '\n' ' ')"
            done ;;
        *) echo "unknown step $step" >&2; exit 2 ;;
    esac
done
