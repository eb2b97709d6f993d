#!/usr/bin/env bash
# Runs bench_engine (nncli's engine) and the PyTorch twin side by side; PyTorch under its three thread
# settings (default, OMP_WAIT_POLICY=PASSIVE, OPENBLAS_NUM_THREADS=1) so its best can be taken per line.
# Then ONNX Runtime (onnxruntime-node) on the same inference models exported to ONNX by PyTorch.
# Usage: scripts/bench_engine.sh [seconds-per-figure] [filter: lenet|mlp|resnet|memory|resnet20|resnet18]
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-3}
ONLY=${2:-}
BUILD=${BUILD:-build}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$BUILD" bench_engine >/dev/null
echo "== nncli engine ($(nproc) cores)"
if [ -n "${OMP_WAIT_POLICY:-}" ]; then  # nncli's default wait policy (thread_policy.cpp) unless one is given
  "$BUILD/bench/bench_engine" "$SECS" "$ONLY"
else
  GOMP_SPINCOUNT=${GOMP_SPINCOUNT:-1000} "$BUILD/bench/bench_engine" "$SECS" "$ONLY"
fi
if ! /usr/bin/python3 -c "import torch" 2>/dev/null; then
  echo "== PyTorch: not installed (apt-get install python3-torch); skipped"
  exit 0
fi
echo "== PyTorch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)') default"
/usr/bin/python3 scripts/bench_engine_torch.py "$SECS" "$ONLY"
echo "== PyTorch OMP_WAIT_POLICY=PASSIVE"
OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/bench_engine_torch.py "$SECS" "$ONLY"
echo "== PyTorch OPENBLAS_NUM_THREADS=1"
OPENBLAS_NUM_THREADS=1 /usr/bin/python3 scripts/bench_engine_torch.py "$SECS" "$ONLY"
ORT_DIR=${NN_ORT_DIR:-$HOME/.cache/nncli/ort}
if ! command -v node >/dev/null || [ ! -d "$ORT_DIR/node_modules/onnxruntime-node" ]; then
  echo "== ONNX Runtime: not installed (bash scripts/setup_ort.sh); skipped"
  exit 0
fi
echo "== ONNX Runtime (onnxruntime-node, 2 threads) on PyTorch's models exported to ONNX"
onnx_dir=$(mktemp -d)
trap 'rm -rf "$onnx_dir"' EXIT
/usr/bin/python3 scripts/bench_engine_torch.py export "$onnx_dir" 2>/dev/null
node scripts/ort/ort_bench.js "$onnx_dir/lenet_b1.onnx" "infer lenet          batch    1" "$SECS" 2
node scripts/ort/ort_bench.js "$onnx_dir/small_resnet_b32.onnx" "infer small_resnet   batch   32" "$SECS" 2
