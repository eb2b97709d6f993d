#!/usr/bin/env bash
# Training beyond LeNet (issue 37): a CIFAR ResNet-20 at batch 128 and ResNet-18 on 3x224x224 at batch 32, one
# Adam step on random images timed by bench/bench_engine (nncli's engine, default threads) and by
# scripts/bench_engine_torch.py (the same networks; ResNet-18 is torchvision's), quiet and with two busy loops per
# core. PyTorch at its best: torch.set_num_threads(2), each line the better of the default OpenMP wait policy and
# OPENBLAS_NUM_THREADS=1. Prints images/s, the ratio nncli / PyTorch (> 1: nncli faster) and each side's peak
# memory (max RSS of the process). Usage: scripts/bench_train_models.sh [seconds-per-figure] [resnet20|resnet18]
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-3}
MODELS=${2:-"resnet20 resnet18"}
BUILD=${BUILD:-build}
ninja -C "$BUILD" bench_engine >/dev/null
source scripts/busy_loops.sh
work=$(mktemp -d)
trap 'stop_busy; rm -rf "$work"' EXIT

# run_side OUT CMD...: the images/s of the model's train line and the peak RSS in MiB, as "IMAGES_S RSS_MIB".
run_side() {
  local out=$1
  shift
  /usr/bin/time -f %M -o "$work/rss" "$@" >"$out" 2>/dev/null || { echo "nan nan"; return; }
  local rate
  rate=$(awk '/^train (resnet20|resnet18_224) / {for (i = 2; i <= NF; i++) if ($i == "images/s") print $(i - 1)}' "$out" | tail -1)
  echo "${rate:-nan} $(($(cat "$work/rss") / 1024))"
}
best() { /usr/bin/python3 -c "import sys; v=[float(x) for x in sys.argv[1:]]; print(max(v))" "$@"; }

for condition in quiet busy; do
  [ "$condition" = busy ] && start_busy
  echo "== $condition ($(nproc) cores)"
  printf "| %-22s | %12s | %14s | %7s | %10s | %12s |\n" model "nncli img/s" "PyTorch img/s" ratio "nncli MiB" "PyTorch MiB"
  for model in $MODELS; do
    read -r n_rate n_rss < <(GOMP_SPINCOUNT=1000 run_side "$work/n.txt" "$BUILD/bench/bench_engine" "$SECS" "$model")
    read -r t1_rate t1_rss < <(run_side "$work/t1.txt" /usr/bin/python3 scripts/bench_engine_torch.py "$SECS" "$model")
    read -r t2_rate t2_rss < <(OPENBLAS_NUM_THREADS=1 run_side "$work/t2.txt" /usr/bin/python3 \
      scripts/bench_engine_torch.py "$SECS" "$model")
    t_rate=$(best "$t1_rate" "$t2_rate")
    t_rss=$([ "$t_rate" = "$t1_rate" ] && echo "$t1_rss" || echo "$t2_rss")
    ratio=$(/usr/bin/python3 -c "print('%.2fx' % ($n_rate / $t_rate))" 2>/dev/null || echo nan)
    name=$([ "$model" = resnet18 ] && echo "ResNet-18 224, b32" || echo "ResNet-20 CIFAR, b128")
    printf "| %-22s | %12s | %14s | %7s | %10s | %12s |\n" "$name" "$n_rate" "$t_rate" "$ratio" "$n_rss" "$t_rss"
  done
  stop_busy
done
