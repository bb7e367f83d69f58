#!/usr/bin/env bash
# Runs BatchingBenchmark in interleaved rounds: in each round the direct-batch baseline runs right
# before the JCA runs, so that a shared or noisy machine loads both sides alike. Every run carries
# BatchCpuTimeProfiler, whose ops/cpu-s does not depend on the machine's other load. Prints the
# JMH CSV rows; docs/performance-cpu.md ("Batching") reports them.
#
#   bench/batching.sh [rounds] [set]       e.g. bench/batching.sh 3 ML-DSA-65
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
set_name=${2:-ML-DSA-65}

mvn -B -q -pl bench -am compile
mvn -B -q -pl bench -am dependency:build-classpath -Dmdep.outputFile=target/bench.cp >/dev/null
mkdir -p target
cp="bench/target/classes:provider/target/classes:kernels-cuda/target/classes"
cp="$cp:$(tr ':' '\n' < bench/target/bench.cp | grep -v -e dilithium-gpu -e junit | paste -sd:)"

jmh() {
  java -cp "$cp" org.openjdk.jmh.Main "$@" -p set="$set_name" -f 1 -wi 2 -w 10s -i 3 -r 10s \
    -prof io.dilithiumgpu.bench.jmh.BatchCpuTimeProfiler -rf csv \
    -rff target/batching-last.csv >/dev/null
  tail -n +2 target/batching-last.csv
}

echo '"Benchmark","Mode","Threads","Samples","Score","Score Error (99.9%)","Unit","Param: callers","Param: set"'
for round in $(seq "$rounds"); do
  jmh 'BatchingBenchmark.directBatches'
  for callers in 1 16 256 4096; do
    jmh 'BatchingBenchmark.jcaSingleCalls' -p callers="$callers"
  done
done
jmh 'BatchingBenchmark.engineOnly'
