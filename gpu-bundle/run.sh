#!/usr/bin/env bash
# The GPU bundle's runner (built into .bundle/ by gpu-bundle/make.sh). Unpacks the runtime, jars
# and vectors once (to $DG_HOME, default /tmp/dilithium-gpu-bundle), then runs each step named:
#
#   tests        the GPU test suite (CUDA backend, device key cache, GPU-vs-CPU differential, every
#                KAT suite on CUDA, CCTV's accumulated test of 10,000 iterations per ML-DSA set), with
#                -Dcuda.required=true so that a GPU that does not open fails
#   alltests     every test class of the provider and kat-vectors test jars (the batcher then
#                runs on the GPU wherever the provider picks its backend itself)
#   selftest     the CLI's selftest: every known-answer suite against the CUDA backend
#   throughput   the CLI's throughput table on the CUDA backend (batch 10,000, median of 30)
#   gpus         one GPU against all GPUs of the host in one table (throughput --gpus 1,all:
#                10,000 tasks per GPU, the ratio beside), then the same with 10,000 tasks in all,
#                split over the GPUs (--same-total; its CSV under $OUT/split)
#   sweep        the CLI's sweep over batch sizes, sweep.csv and charts (a host without fonts
#                cannot draw them: `sweep --from-csv sweep.csv --out DIR` draws them elsewhere)
#   jca          the CLI's JCA-path table (1 ... 4096 concurrent callers)
#   tls          the CLI's TLS handshake table: BouncyCastle alone, this provider on cpu and on
#                cuda, ML-DSA-65 server certificate, 1 ... 1024 concurrent clients (about 2 minutes)
#   cli ARGS...  any CLI subcommand with its arguments (must be the last step)
#
# Default: tests selftest throughput. Logs and CSV files go to $OUT (default ./out); the last
# lines printed are a summary. JAVA_OPTS adds JVM options (e.g. -Dcuda.diff.tasks=100000).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
home=${DG_HOME:-/tmp/dilithium-gpu-bundle}
out=${OUT:-$here/out}
mkdir -p "$out"
rev=$(cat "$here/REVISION" 2>/dev/null || echo unknown)

if [ ! -f "$home/.unpacked-$rev" ] || [ "$here/lib.tar.xz" -nt "$home/.unpacked-$rev" ]; then
    rm -rf "$home"; mkdir -p "$home"
    for part in jre lib vectors; do tar -C "$home" -xJf "$here/$part.tar.xz" || exit 1; done
    touch "$home/.unpacked-$rev"
fi
java=$home/jre/bin/java
cp=$(ls "$home"/lib/*.jar | grep -v junit-platform-console-standalone | paste -sd: -)
vectors=$home/vectors
opts=(-Dkat.dir="$vectors" --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-})
console=$(ls "$home"/lib/junit-platform-console-standalone-*.jar)
summary=()

junit() {  # junit <name> <selectors...>
    local name=$1; shift
    "$java" "${opts[@]}" -Dcuda.required=true -jar "$console" execute --class-path "$cp" \
        --disable-banner --details=tree --reports-dir="$out/junit-$name" "$@" 2>&1 | tee "$out/$name.log"
    local rc=${PIPESTATUS[0]}
    summary+=("$name: exit $rc; $(grep -E '^\[ +[0-9]+ (tests (successful|failed|skipped|aborted)|containers failed) +\]' "$out/$name.log" | tr -s ' []' ' ' | paste -sd ';' -)")
}

cli() {  # cli <name> <subcommand args...>
    local name=$1; shift
    "$java" "${opts[@]}" -cp "$cp" io.dilithiumgpu.bench.Cli "$@" 2>&1 | tee "$out/$name.log"
    summary+=("$name: exit ${PIPESTATUS[0]}")
}

[ $# -gt 0 ] || set -- tests selftest throughput
echo "dilithium-gpu bundle $rev on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | paste -sd ';' -)"
while [ $# -gt 0 ]; do
    step=$1; shift
    case $step in
        tests) junit gpu-tests --select-class=io.dilithiumgpu.backend.cuda.CudaBackendTest \
                   --select-class=io.dilithiumgpu.backend.cuda.CudaKeyCacheTest \
                   --select-class=io.dilithiumgpu.backend.cuda.CudaDifferentialTest \
                   --select-class=io.dilithiumgpu.kat.CudaKatTest \
                   --select-class=io.dilithiumgpu.kat.CudaAccumulatedTest ;;
        alltests) junit all-tests --select-package=io.dilithiumgpu --exclude-package=io.dilithiumgpu.bench ;;
        selftest) cli selftest selftest --backend cuda --kat-dir "$vectors" --out "$out" ;;
        throughput) cli throughput throughput --backend cuda --out "$out" ;;
        gpus) cli gpus throughput --gpus 1,all --out "$out"
              cli gpus-split throughput --gpus 1,all --same-total --out "$out/split" ;;
        sweep) cli sweep sweep --backend cuda --sets ML-DSA-44,ML-DSA-65,ML-DSA-87 --out "$out" ;;
        jca) cli jca jca --out "$out" ;;
        tls) cli tls tls --out "$out" ;;
        cli) cli "cli-$1" "$@"; set -- ;;
        *) echo "run.sh: unknown step $step" >&2; exit 2 ;;
    esac
done
echo
echo "== summary"
printf '  %s\n' "${summary[@]}"
