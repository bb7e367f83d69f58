#!/bin/sh
# Builds the host test program (CPU only) with nvcc, or with $CXX when NVCC=none.
# Usage: test/build-host-tests.sh [output]   (default target/host_tests)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/target/host_tests}
mkdir -p "$(dirname "$out")"
if [ "${NVCC:-nvcc}" = none ]; then
    ${CXX:-g++} -std=c++17 -O2 -g -x c++ -Wall -Wno-unused-function ${EXTRA_FLAGS:-} \
        "$here/test/host_tests.cu" "$here/test/simt_host.cpp" -o "$out"
else
    ${NVCC:-nvcc} -std=c++17 -O2 -g -Xcompiler -Wall,-Wno-unused-function \
        "$here/test/host_tests.cu" "$here/test/simt_host.cpp" -o "$out"
fi
echo "$out"
