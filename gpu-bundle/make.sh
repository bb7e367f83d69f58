#!/usr/bin/env bash
# Builds the self-contained GPU bundle in .bundle/ (git-ignored): everything a GPU host without
# Maven or a network needs to run the GPU test suite and the benchmarks.
#
#   jre.tar.xz       a Java runtime made with Temurin 25's jlink
#   lib.tar.xz       the project's jars (main and test; tls with BouncyCastle's JSSE and PKIX), their
#                    dependencies, the JUnit console
#   vectors.tar.xz   the known-answer vectors (../shared/kat-vectors, or $KAT_DIR)
#   run.sh           the runner (gpu-bundle/run.sh): unpacks once, then runs what it is asked
#
# Usage: gpu-bundle/make.sh          (then carry .bundle to the GPU host and run .bundle/run.sh)
# Environment: TEMURIN_HOME (default: /usr/lib/jvm/temurin-25*), KAT_DIR, BUNDLE_DIR.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${BUNDLE_DIR:-$root/.bundle}
kat=${KAT_DIR:-$root/../shared/kat-vectors}
temurin=${TEMURIN_HOME:-$(ls -d /usr/lib/jvm/temurin-25* 2>/dev/null | head -1)}
junit_console=org.junit.platform:junit-platform-console-standalone:1.11.4

[ -x "$temurin/bin/jlink" ] || { echo "make.sh: no Temurin 25 jlink (set TEMURIN_HOME)" >&2; exit 1; }
[ -f "$kat/SHA256SUMS" ] || { echo "make.sh: no vectors at $kat (set KAT_DIR)" >&2; exit 1; }

cd "$root"
mvn -B -q -DskipTests install
[ -f kernels-cuda/target/classes/io/dilithiumgpu/kernels/dilithium.fatbin ] \
    || { echo "make.sh: the kernels jar has no fatbin (is nvcc installed?)" >&2; exit 1; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib" "$stage/vectors"

# Jars: every module's runtime and test classpath, minus JUnit (the console launcher brings it).
mvn -B -q dependency:copy-dependencies -pl bench,kat-vectors,provider,tls -DincludeScope=test \
    -DexcludeGroupIds=org.junit.jupiter,org.junit.platform,org.opentest4j,org.apiguardian \
    -DexcludeArtifactIds=jmh-generator-annprocess -DoutputDirectory="$stage/lib"
cp provider/target/dilithium-gpu-provider-*-tests.jar kat-vectors/target/dilithium-gpu-kat-vectors-*-tests.jar \
   tls/target/dilithium-gpu-tls-*-tests.jar bench/target/dilithium-gpu-bench-[0-9]*.jar "$stage/lib/"
mvn -B -q dependency:copy -Dartifact=$junit_console -DoutputDirectory="$stage/lib"
# Not needed on the GPU host, and they would push the bundle past 60 MB: JCuda's NVRTC and
# PTX-compiler natives (the backend loads fatbins through the driver API only), JMH and its
# statistics (the CLI does not use them), xchart's PDF and SVG back ends (charts are PNG).
zip -q -d "$stage"/lib/jcuda-natives-*.jar 'lib/libJNvPTXCompiler-*' 'lib/libJNvrtc-*'
( cd "$stage/lib" && rm -f jmh-core-*.jar jopt-simple-*.jar commons-math3-*.jar pdfbox-*.jar fontbox-*.jar \
      VectorGraphics2D-*.jar graphics2d-*.jar commons-logging-*.jar )

# The runtime: the modules the jars need (jdeps' view), plus jdk.jfr and jdk.management for the
# tests and jdk.zipfs, through which the JUnit launcher scans test jars for --select-package.
modules=java.base,java.logging,java.management,java.desktop,java.naming,java.sql,java.xml,jdk.unsupported,jdk.jfr,jdk.management,jdk.crypto.cryptoki,java.scripting,jdk.zipfs
"$temurin/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
    --compress=zip-0 --output "$stage/jre"

cp -r "$kat"/. "$stage/vectors/"

mkdir -p "$out"
rm -f "$out"/*.tar.xz
XZ_OPT="-T0 -9" tar -C "$stage" -cJf "$out/jre.tar.xz" jre
XZ_OPT="-T0 -9" tar -C "$stage" -cJf "$out/lib.tar.xz" lib
XZ_OPT="-T0 -9" tar -C "$stage" -cJf "$out/vectors.tar.xz" vectors
cp gpu-bundle/run.sh "$out/run.sh"
chmod +x "$out/run.sh"
git rev-parse --short HEAD > "$out/REVISION" 2>/dev/null || true
du -ch "$out"/* | sed 's/^/  /'
