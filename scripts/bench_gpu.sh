#!/usr/bin/env bash
# GPU speed side by side (issue: CUDA backend): bench_gpu (nncli's engine) in cudnn:float and cudnn:half,
# then PyTorch on the same GPU in float and in half (autocast + GradScaler). Needs a CUDA build and a GPU.
# Usage: scripts/bench_gpu.sh [seconds-per-figure] [filter: lenet|small_resnet|resnet18]
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-3}
ONLY=${2:-}
BUILD=${BUILD:-build-cuda}
if [ ! -x "$BUILD/bench/bench_gpu" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNN_WITH_CUDA=ON >/dev/null
  ninja -C "$BUILD" bench_gpu >/dev/null
fi
for ctx in cudnn cudnn:half; do
  echo "== nncli engine, $ctx"
  "$BUILD/bench/bench_gpu" "$ctx" "$SECS" "$ONLY"
done
PY=${PYTHON:-python3}
if ! "$PY" -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
  echo "== PyTorch with CUDA: not available to $PY; skipped"
  exit 0
fi
for mode in float half; do
  echo "== PyTorch, $mode"
  (cd scripts && "$PY" bench_gpu_torch.py "$mode" "$SECS" "$ONLY")
done
