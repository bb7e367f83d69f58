#!/usr/bin/env bash
# Builds and runs the host test program: the kernels' task code (device helpers compiled for the
# host, warp-level code under the SIMT emulator, a launch's warps interleaved) against the shared
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
skip="or skip these tests with -Dkernels.hostTests.skip=true"

# Prerequisites, checked before they are needed, each with what to install.
need_python() {
    if ! command -v python3 >/dev/null 2>&1; then
        echo "kernels-cuda host tests: python3 is missing; it turns the vectors into the tests' records." \
             "Install Python 3 with the 'cryptography' package (apt-get install python3-cryptography," \
             "or pip install cryptography), $skip" >&2
        exit 1
    fi
    if ! python3 -c 'import cryptography' >/dev/null 2>&1; then
        echo "kernels-cuda host tests: Python's 'cryptography' package is missing (the vector script" \
             "needs its AES for the NIST KAT generator). Install it (apt-get install python3-cryptography," \
             "or pip install cryptography), $skip" >&2
        exit 1
    fi
}
need_compiler() {
    if [ "${NVCC:-}" = none ] && ! command -v "${CXX:-g++}" >/dev/null 2>&1; then
        echo "kernels-cuda host tests: no C++17 compiler: ${CXX:-g++} is missing (and no nvcc)." \
             "Install one (apt-get install g++) or name it in CXX, $skip" >&2
        exit 1
    fi
}

vectors=$target/vectors.txt
if [ ! -f "$vectors" ] || [ -n "$(find "$here/test/make_vectors.py" "$kat" -newer "$vectors" -type f 2>/dev/null | head -1)" ]; then
    need_python
    python3 "$here/test/make_vectors.py" "$kat" "$target" >/dev/null
fi

program=$target/host_tests
if [ ! -x "$program" ] || [ -n "$(find "$here/include" "$here/test" -newer "$program" -type f 2>/dev/null | head -1)" ]; then
    if [ -z "${NVCC:-}" ] && ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
        export NVCC=none
    elif [ -z "${NVCC:-}" ] && ! command -v nvcc >/dev/null 2>&1; then
        export NVCC=/usr/local/cuda/bin/nvcc
    fi
    need_compiler
    if [ "${NVCC:-nvcc}" != none ]; then
        # kernel_bench runs only on a GPU host, but it must still compile against the entry points'
        # signatures here: nvcc's front end over it, without code generation. Before the program
        # is built, so that a failure leaves it stale and the next run checks again.
        "${NVCC:-nvcc}" -std=c++17 -cuda -I"$here/include" "$here/test/kernel_bench.cu" -o /dev/null
    fi
    "$here/test/build-host-tests.sh" "$program" >/dev/null
fi
"$program" "$vectors"
