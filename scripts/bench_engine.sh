#!/usr/bin/env bash
# Runs bench_engine (nncli's engine) and the PyTorch twin side by side; PyTorch under its three thread
# settings (default, OMP_WAIT_POLICY=PASSIVE, OPENBLAS_NUM_THREADS=1) so its best can be taken per line.
# Usage: scripts/bench_engine.sh [seconds-per-figure] [filter: lenet|mlp|resnet|memory]
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-3}
ONLY=${2:-}
BUILD=${BUILD:-build}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$BUILD" bench_engine >/dev/null
echo "== nncli engine ($(nproc) cores)"
"$BUILD/bench/bench_engine" "$SECS" "$ONLY"
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
