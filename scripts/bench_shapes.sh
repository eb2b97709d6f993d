#!/usr/bin/env bash
# What a change of input shapes costs (issue 36, item 7): for models exported with dynamic axes by PyTorch (a
# TransformerEncoder classifier and a GPT-style decoder, scripts/check_dynamic_shapes.py's)
# and an nnabla LeNet at another batch, bench/bench_shapes times a run at each of two shapes already set up, the
# first run at a new shape (with the shape template's learning), later new shapes (built from the template) and a
# return to the first shape, quiet and with two busy loops per core. Usage: scripts/bench_shapes.sh
#   (BUILD: the build folder, default build; needs python3-torch for the exports)
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=${BUILD:-build}/bench/bench_shapes
work=$(mktemp -d)
source scripts/busy_loops.sh
trap 'stop_busy; rm -rf "$work"' EXIT
/usr/bin/python3 - "$work" <<'PY'
import sys, torch
sys.path.insert(0, "scripts")
import check_dynamic_shapes as c
models = c.models()
for name in ["transformer_encoder", "gpt_decoder"]:  # one input each (bench_shapes sets one)
    module, names, axes, shapes = models[name]
    torch.manual_seed(0)
    torch.onnx.export(module, tuple(shapes[0]), f"{sys.argv[1]}/{name}.onnx", opset_version=17, input_names=names,
                      dynamic_axes=axes)
PY
run_all() {
  "$BENCH" "$work/transformer_encoder.onnx" x=1,16,32 x=1,128,32
  "$BENCH" "$work/transformer_encoder.onnx" x=8,64,32 x=8,128,32
  "$BENCH" "$work/gpt_decoder.onnx" tokens=1,16 tokens=1,48
  "$BENCH" sample_models/mnist_lenet/result2.nnp Input=1,1,28,28 Input=32,1,28,28
}
echo "quiet:"
run_all
start_busy
echo "busy (two CPU-bound loops per core):"
run_all
