#!/usr/bin/env bash
# CI entry point: installs the dependencies, builds nncli and its tests (Release, Ninja, ccache when
# installed) and runs every CTest case except the ones labelled slow. Exits non-zero on any failure.
#   BUILD_DIR (default build-ci), JOBS (default: number of CPUs)
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR="$PWD"  # cache hits across clones at other paths
bash scripts/setup.sh
build_dir=${BUILD_DIR:-build-ci}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNN_BUILD_TESTS=ON
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}"
cd "$build_dir"
ctest -LE slow --output-on-failure -j2
