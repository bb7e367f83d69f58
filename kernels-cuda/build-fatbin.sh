#!/usr/bin/env bash
# Builds the kernels' fatbin: src/module.cu compiled once per target architecture, in parallel,
# to SASS (cubin) for each, plus PTX for the newest virtual architecture (forward compatibility),
# then combined with fatbinary into <outdir>/dilithium.fatbin.
#
# Usage: build-fatbin.sh <outdir>
#
# nvcc is taken from $NVCC, the PATH, $CUDA_HOME/bin or /usr/local/cuda/bin. Without one (or with
# NVCC=none) the script warns, writes nothing and succeeds: the provider then runs on the CPU
# backend only.
# The architectures are those of DG_CUDA_ARCHS (default below) that this nvcc supports. SASS runs on
# its own major version's later minors, so sm_80 serves sm_86 and sm_89, sm_100 serves sm_103 and
# sm_120 serves sm_121; sm_90 is Hopper's own. sm_110 (Jetson Thor, an ARM host) is left out: the
# provider's JCuda natives are for x86-64 hosts. The PTX of the newest lets later GPUs JIT-compile.
# When the fatbin is newer than every source it is left alone (a second `mvn verify` in the
# same tree costs nothing).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build-fatbin.sh <outdir>}
fatbin=$out/dilithium.fatbin

nvcc=${NVCC:-}
if [ "$nvcc" = none ]; then
    nvcc=  # NVCC=none: build as on a machine without CUDA (the CPU-only jar)
elif [ -z "$nvcc" ]; then
    for c in "$(command -v nvcc || true)" "${CUDA_HOME:-}/bin/nvcc" /usr/local/cuda/bin/nvcc; do
        if [ -n "$c" ] && [ -x "$c" ]; then nvcc=$c; break; fi
    done
fi
if [ -z "$nvcc" ]; then
    echo "[WARNING] kernels-cuda: nvcc not found (PATH, CUDA_HOME, /usr/local/cuda): no fatbin is built;" \
         "the provider will run on the CPU backend only" >&2
    exit 0
fi

mkdir -p "$out"
newest_source=$(find "$here/src" "$here/include" "$0" -type f -newer "$fatbin" 2>/dev/null | head -1 || true)
if [ -f "$fatbin" ] && [ -z "$newest_source" ]; then
    echo "kernels-cuda: $fatbin is up to date"
    exit 0
fi

supported=$("$nvcc" --list-gpu-code | tr '\n' ' ')
wanted=${DG_CUDA_ARCHS:-"80 90 100 120"}
archs=()
for a in $wanted; do
    case " $supported " in *" sm_$a "*) archs+=("$a") ;; esac
done
if [ ${#archs[@]} -eq 0 ]; then
    echo "[WARNING] kernels-cuda: $nvcc supports none of sm_{$wanted}: no fatbin is built" >&2
    exit 0
fi
ptx_arch=${archs[${#archs[@]}-1]}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-std=c++17 -O3 ${DG_NVCC_FLAGS:-} -Xptxas -warn-spills "-I$here/include")
jobs=$(nproc 2>/dev/null || echo 2)

echo "kernels-cuda: $("$nvcc" --version | tail -1); SASS for$(printf ' sm_%s' "${archs[@]}"), PTX compute_$ptx_arch; $jobs jobs"
pids=()
for a in "${archs[@]}"; do
    "$nvcc" "${flags[@]}" -cubin -arch="sm_$a" -o "$work/sm_$a.cubin" "$here/src/module.cu" &
    pids+=($!)
    if [ ${#pids[@]} -ge "$jobs" ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
"$nvcc" "${flags[@]}" -ptx -arch="compute_$ptx_arch" -o "$work/compute_$ptx_arch.ptx" "$here/src/module.cu" &
pids+=($!)
for p in "${pids[@]}"; do wait "$p"; done

images=()
for a in "${archs[@]}"; do images+=("--image3=kind=elf,sm=$a,file=$work/sm_$a.cubin"); done
images+=("--image3=kind=ptx,sm=$ptx_arch,file=$work/compute_$ptx_arch.ptx")
fatbinary_bin=$(dirname "$nvcc")/fatbinary
[ -x "$fatbinary_bin" ] || fatbinary_bin=fatbinary
"$fatbinary_bin" --64 --compress-all --compress-mode=size --create="$fatbin.tmp" "${images[@]}"
mv "$fatbin.tmp" "$fatbin"
echo "kernels-cuda: wrote $fatbin ($(wc -c < "$fatbin") bytes)"
