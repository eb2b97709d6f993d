#!/usr/bin/env bash
# Demo: installs the dependencies, builds nncli (Release), trains the Fashion-MNIST LeNet sample, runs and
# converts it, then the other sample models:
# dump, infer (LeNet on an MNIST digit, the MLP on a batch of two) and forward (the MLP over a CSV dataset).
#   BUILD_DIR (default build-demo), DEMO_OUT (default BUILD_DIR/demo_out)
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR="$PWD"  # cache hits across clones at other paths
bash scripts/setup.sh
build_dir=${BUILD_DIR:-build-demo}
out=${DEMO_OUT:-$build_dir/demo_out}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNN_BUILD_TESTS=OFF
cmake --build "$build_dir" --target nncli -j "${JOBS:-$(nproc)}"
nncli="$build_dir/apps/nncli/nncli"
mkdir -p "$out"

step() { printf '\n== %s\n' "$*"; }

step "nncli version"
"$nncli" version

# The main job: train the LeNet sample on Fashion-MNIST (Debian dataset-fashion-mnist), evaluate it, convert it.
lenet=sample_models/fashion_mnist_lenet
data="$build_dir/fashion_mnist"
step "prepare Fashion-MNIST as nnabla NPY caches -> $data"
[ -f "$data/test.cache/cache_index.csv" ] || python3 scripts/prepare_fashion_mnist.py "$data"
step "train: LeNet, 1 epoch of 60,000 images, Adam, batch 128 -> $out/train"
rm -rf "$out/train" && mkdir -p "$out/train"
"$nncli" train -c "$lenet/lenet_1epoch.nntxt" -o "$out/train" \
  --dataset Training="$data/train.cache" --dataset Validation="$data/test.cache"
cat "$out/train/monitoring_report.yml"
step "forward: the trained model over the 10,000 test images -> $out/forward_test/output_result.csv"
mkdir -p "$out/forward_test"
"$nncli" forward -c "$out/train/results.nnp" -d "$data/test.cache" -o "$out/forward_test"
head -3 "$out/forward_test/output_result.csv"
step "convert: results.nnp -> ONNX and -> NNB (nnabla-c-runtime), then run the NNB on a 28x28 image"
"$nncli" convert -f "$out/train/results.nnp" "$out/lenet.onnx"
"$nncli" convert -f "$out/train/results.nnp" "$out/lenet.nnb"
"$nncli" infer -o "$out/lenet_nnb" "$out/lenet.nnb" sample_models/mnist_lenet/input_4_1.bin
"$nncli" -q infer --format json "$out/train/results.nnp" sample_models/mnist_lenet/input_4_1.bin
od -A n -t f4 -v "$out/lenet_nnb_0.bin"

step "dump: the LeNet sample (functions)"
"$nncli" dump -F sample_models/mnist_lenet/result2.nnp

step "infer: LeNet on a handwritten 4 -> $out/lenet_0.bin (10 class probabilities)"
"$nncli" infer -o "$out/lenet" sample_models/mnist_lenet/result2.nnp sample_models/mnist_lenet/input_4_1.bin
"$nncli" -q infer --format json sample_models/mnist_lenet/result2.nnp sample_models/mnist_lenet/input_4_1.bin
echo "expected (upstream nbla):"
od -A n -t f4 -v sample_models/mnist_lenet/expected_output_4_1.bin

step "infer: the MLP on a batch of two -> $out/mlp_0.bin, $out/mlp_1.bin"
"$nncli" infer -b 2 -o "$out/mlp" sample_models/mlp/mlp.nnp sample_models/mlp/input_b2.bin
od -A n -t f4 -v "$out/mlp_0.bin" "$out/mlp_1.bin"
echo "expected (float64 reference):"
od -A n -t f4 -v sample_models/mlp/expected_output_b2_0.bin sample_models/mlp/expected_output_b2_1.bin

step "forward: the MLP over sample_models/mlp/data.csv -> $out/forward/output_result.csv"
mkdir -p "$out/forward"
"$nncli" forward -c sample_models/mlp/mlp.nnp -d sample_models/mlp/data.csv -o "$out/forward"
cat "$out/forward/output_result.csv"
echo
