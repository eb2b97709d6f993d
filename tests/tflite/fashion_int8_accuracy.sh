#!/usr/bin/env bash
# Fashion-MNIST LeNet (the README's main job, 1 epoch): exported to float and to full-integer int8 TFLite, the
# whole test split (10,000 images) run through LiteRT.js; the int8 accuracy must stay within 1 point of the
# float one. Needs dataset-fashion-mnist, python3 with numpy, node and scripts/setup_litert.sh (else skip 77).
#
#   fashion_int8_accuracy.sh NNCLI SOURCE_DIR [WORK_DIR]   (WORK_DIR keeps the data and the trained model)
set -u
nncli=$1; src=$2; work=${3:-$(mktemp -d)}
run_js="$src/scripts/litert/litert_run.mjs"
[ -d /usr/share/datasets/fashion-mnist ] || { echo "SKIP: dataset-fashion-mnist is not installed"; exit 77; }
command -v node >/dev/null || { echo "SKIP: node is not installed"; exit 77; }
[ -d "${NN_LITERT_DIR:-$HOME/.cache/nncli/litert}/node_modules/@litertjs/core" ] ||
  { echo "SKIP: @litertjs/core missing (scripts/setup_litert.sh)"; exit 77; }
py=python3
$py -c "import numpy" 2>/dev/null || py=/usr/bin/python3
$py -c "import numpy" 2>/dev/null || { echo "SKIP: numpy is not installed"; exit 77; }
mkdir -p "$work" && cd "$work" || exit 1
[ -f data/test.cache/cache_index.csv ] || python3 "$src/scripts/prepare_fashion_mnist.py" data >/dev/null || exit 1
if [ ! -f train/results.nnp ]; then
  mkdir -p train
  "$nncli" -q train -c "$src/sample_models/fashion_mnist_lenet/lenet_1epoch.nntxt" -o train \
    --dataset Training=data/train.cache --dataset Validation=data/test.cache || { echo "FAIL: train failed"; exit 1; }
fi
# The caches hold x uint8 (n, 1, 28, 28) then y (n, 1) per file; the network reads x / 255.
$py - <<'PY' || exit 1
import glob, numpy as np
def load(d):
    xs, ys = [], []
    for f in sorted(glob.glob(d + "/cache_*.npy")):
        with open(f, "rb") as h:
            xs.append(np.load(h)); ys.append(np.load(h))
    return (np.concatenate(xs).astype(np.float32) / 255.0), np.concatenate(ys).astype(np.float32)
x, y = load("data/test.cache")
np.save("test_x.npy", x); np.save("test_y.npy", y)
np.save("calib_x.npy", load("data/train.cache")[0][:500])
PY
"$nncli" -q convert -f -b 100 train/results.nnp float.tflite || { echo "FAIL: float export"; exit 1; }
"$nncli" -q convert -f -b 100 --quantization --tflite-float-io --dataset calib_x.npy train/results.nnp int8.tflite ||
  { echo "FAIL: int8 export"; exit 1; }
fa=$(node "$run_js" classify float.tflite test_x.npy test_y.npy --nchw 2>/dev/null) || { echo "FAIL: float run"; exit 1; }
ia=$(node "$run_js" classify int8.tflite test_x.npy test_y.npy --nchw 2>/dev/null) || { echo "FAIL: int8 run"; exit 1; }
echo "LiteRT.js float: $fa"
echo "LiteRT.js int8:  $ia"
f=${fa#accuracy }; f=${f%% *}; i=${ia#accuracy }; i=${i%% *}
awk -v f="$f" -v i="$i" 'BEGIN { d = f - i; if (d < 0) d = -d; if (d > 0.01 || f < 0.5) { print "FAIL: int8 is " d * 100 " points off"; exit 1 } print "OK: int8 within " d * 100 " points" }'
