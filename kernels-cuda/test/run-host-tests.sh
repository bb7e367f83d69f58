#!/usr/bin/env bash
# Builds and runs the host test program: the kernels' task code (device helpers compiled for the
# host, warp-level code under the SIMT emulator, helping warps interleaved) against the shared
# known-answer vectors and a plain reference. The GPU-free guard of the kernels in every build.
#
# Usage: test/run-host-tests.sh <kat-vectors dir>
# The flat vectors (test/make_vectors.py) and the program are rebuilt only when their sources are
# newer. The program is built with nvcc when there is one, else with $CXX (g++ by default).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
kat=${1:?usage: run-host-tests.sh <kat-vectors dir>}
if [ ! -d "$kat" ]; then
    echo "kernels-cuda host tests: the known-answer vectors are missing: expected $kat" >&2
    exit 1
fi
target=$here/target
mkdir -p "$target"

vectors=$target/vectors.txt
if [ ! -f "$vectors" ] || [ -n "$(find "$here/test/make_vectors.py" "$kat" -newer "$vectors" -type f 2>/dev/null | head -1)" ]; then
    python3 "$here/test/make_vectors.py" "$kat" "$target" >/dev/null
fi

program=$target/host_tests
if [ ! -x "$program" ] || [ -n "$(find "$here/include" "$here/test" -newer "$program" -type f 2>/dev/null | head -1)" ]; then
    if [ -z "${NVCC:-}" ] && ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
        export NVCC=none
    elif [ -z "${NVCC:-}" ] && ! command -v nvcc >/dev/null 2>&1; then
        export NVCC=/usr/local/cuda/bin/nvcc
    fi
    "$here/test/build-host-tests.sh" "$program" >/dev/null
fi
"$program" "$vectors"
