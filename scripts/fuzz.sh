#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan) and runs each for SECONDS (default 600),
# seeded from the real models in ../shared/testdata. Crashes land in build-fuzz/crashes/.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-600}
B=build-fuzz
CC=clang CXX=clang++ cmake -S . -B $B -G Ninja -DNN_FUZZ=ON -DNN_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
TARGETS=${TARGETS:-nntxt nnp onnx nnb tflite h5 csv image}
ninja -C $B $(for t in $TARGETS; do echo fuzz_$t; done)
mkdir -p $B/crashes; for t in $TARGETS; do mkdir -p $B/corpus_$t; done
find ../shared/testdata -name '*.nntxt' -size -64k -exec cp {} $B/corpus_nntxt/ \; 2>/dev/null || true
find ../shared/testdata -name '*.nnp' -size -1024k -exec cp {} $B/corpus_nnp/ \; 2>/dev/null || true
find ../shared/testdata -name '*.onnx' -size -64k -exec cp {} $B/corpus_onnx/ \; 2>/dev/null || true
find ../shared/testdata -name '*.nnb' -size -1024k -exec cp --backup=numbered {} $B/corpus_nnb/ \; 2>/dev/null || true
find ../shared/testdata -name '*.h5' -size -256k -exec cp --backup=numbered {} $B/corpus_h5/ \; 2>/dev/null || true
find ../shared/testdata tests -name '*.csv' -size -64k -exec cp --backup=numbered {} $B/corpus_csv/ \; 2>/dev/null || true
find ../shared/testdata -name '*.npy' -size -64k -exec cp --backup=numbered {} $B/corpus_csv/ \; 2>/dev/null || true
find ../shared/testdata tests -name '*.png' -size -64k -exec cp --backup=numbered {} $B/corpus_image/ \; 2>/dev/null || true
find ../shared/testdata -name '*.tflite' -size -64k -exec cp {} $B/corpus_tflite/ \; 2>/dev/null || true
export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=0
for t in $TARGETS; do
  echo "== fuzz_$t for ${SECONDS_EACH}s"
  $B/fuzz/fuzz_$t $B/corpus_$t -max_total_time="$SECONDS_EACH" -rss_limit_mb=4096 -malloc_limit_mb=2048 \
    -artifact_prefix=$B/crashes/$t- -print_final_stats=1 2>&1 | tail -12
done
