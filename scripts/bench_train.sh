#!/usr/bin/env bash
# Training throughput: `nncli train` end to end (data loading from the NPY cache and the test-set monitor
# included) on the Fashion-MNIST LeNet and MLP configs of sample_models/fashion_mnist_lenet, beside PyTorch
# (scripts/bench_train_torch.py, same networks, data preloaded, 2 threads), 1 epoch = 468 x 128 images.
# Prints images/s and peak memory (max RSS from /usr/bin/time -v) of both, on the quiet machine and with two
# busy loops per core (scripts/busy_loops.sh). Then LeNet from 10,000 PNG files (CSV, batch 64, 2 epochs) end
# to end, writing its implicit cache and then reading it, beside PyTorch trained from preloaded tensors.
# PyTorch runs at its best: torch.set_num_threads(2), OPENBLAS_NUM_THREADS=1 and libgomp's default wait
# policy; nncli with its defaults.
# Usage: scripts/bench_train.sh [path/to/nncli]   (default build/apps/nncli/nncli)
set -eu
source "$(dirname "$0")/busy_loops.sh"
trap stop_busy EXIT
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NNCLI=${1:-$ROOT/build/apps/nncli/nncli}
WORK=${BENCH_WORK:-${TMPDIR:-/tmp}/nncli_bench_train}
DATA=$WORK/data
mkdir -p "$WORK"
[ -f "$DATA/train.cache/cache_index.csv" ] || python3 "$ROOT/scripts/prepare_fashion_mnist.py" "$DATA" >/dev/null
IMAGES=$((468 * 128))
# The PNG variant: 10,000 images as NNC-style CSV + PNG files, and the LeNet config at batch 64 for 2 epochs.
if [ ! -f "$WORK/png/data/train.csv" ]; then
  python3 "$ROOT/scripts/prepare_fashion_mnist.py" "$WORK/png/data" --format csv --limit 10000 >/dev/null
fi
sed -e 's/batch_size: 128/batch_size: 64/' -e 's/max_epoch: 1/max_epoch: 2/' -e 's/iter_per_epoch: 468/iter_per_epoch: 156/' \
  "$ROOT/sample_models/fashion_mnist_lenet/lenet_1epoch.nntxt" >"$WORK/png/lenet_png.nntxt"
sed -i -e 's|"data/|"'"$WORK"'/png/data/|' "$WORK/png/lenet_png.nntxt"  # the CSVs and their cache_dir
# The data-pipeline case: the same with ImageAugmentation (random shift by up to 2 pixels, left-right flip) on the
# training network's input, against PyTorch decoding the PNG files in a DataLoader of 2 workers with the same
# augmentation (bench_train_torch.py --csv).
/usr/bin/python3 - "$WORK/png/lenet_png.nntxt" "$WORK/png/lenet_png_aug.nntxt" <<'PY'
import sys
text = open(sys.argv[1]).read()
main_end = text.index("\nnetwork {", text.index("network {") + 1)  # the training network comes first
main = text[:main_end]
aug = """  variable {
    name: "Augmented"
    type: "Buffer"
    shape { dim: -1 dim: 1 dim: 28 dim: 28 }
  }
  function {
    name: "ImageAugmentation"
    type: "ImageAugmentation"
    input: "x"
    output: "Augmented"
    image_augmentation_param {
      shape { dim: 1 dim: 28 dim: 28 } pad { dim: 2 dim: 2 } min_scale: 1 max_scale: 1 angle: 0 aspect_ratio: 1
      distortion: 0 flip_lr: true flip_ud: false brightness: 0 brightness_each: false contrast: 1
      contrast_center: 0 contrast_each: false noise: 0 seed: -1
    }
  }
"""
first = main.index("  function {")
main = main[:first] + aug + main[first:].replace('input: "x"', 'input: "Augmented"', 1)
open(sys.argv[2], "w").write(main + text[main_end:])
PY

max_rss_mb() { awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$1"; }
wall_s() {
  awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$1"
}

for condition in quiet busy; do
[ "$condition" = busy ] && start_busy
echo "== $condition"
for model in lenet mlp; do
  out=$WORK/out_$model
  rm -rf "$out" && mkdir -p "$out"
  /usr/bin/time -v "$NNCLI" -q train -c "$ROOT/sample_models/fashion_mnist_lenet/${model}_1epoch.nntxt" -o "$out" \
    --dataset "Training=$DATA/train.cache" --dataset "Validation=$DATA/test.cache" 2>"$WORK/time_nncli_$model.txt"
  secs=$(wall_s "$WORK/time_nncli_$model.txt")
  err=$(awk '/valid_error/ {v = $2} END {print v}' "$out/monitoring_report.yml")
  printf 'nncli %s: %.0f images/s (%d images in %.1f s end to end, test accuracy %.4f), max RSS %s MB\n' \
    "$model" "$(echo "$IMAGES / $secs" | bc -l)" "$IMAGES" "$secs" "$(echo "1 - $err" | bc -l)" \
    "$(max_rss_mb "$WORK/time_nncli_$model.txt")"
  line=$(OPENBLAS_NUM_THREADS=1 /usr/bin/time -v /usr/bin/python3 "$ROOT/scripts/bench_train_torch.py" "$model" \
    2>"$WORK/time_torch_$model.txt")
  echo "$line, max RSS $(max_rss_mb "$WORK/time_torch_$model.txt") MB"
done
# LeNet from PNG files (the NNC way): 10,000 training images, batch 64, 2 epochs, end to end; the first run
# writes the implicit cache (cache_dir), the next reads it. PyTorch trains the same from preloaded tensors.
# Quiet, the three take turns for PNG_ROUNDS rounds (default 3) and each figure is the median of its rounds
# (busy: one round, PyTorch alone takes a minute there).
png_run() {
  rm -rf "$WORK/png/out" && mkdir -p "$WORK/png/out"
  /usr/bin/time -f %e -o "$WORK/png/time" "$NNCLI" -q train -c "$WORK/png/lenet_png.nntxt" -o "$WORK/png/out"
  cat "$WORK/png/time"
}
torch_png_s() {  # seconds from PyTorch's images/s (its own line rounds the seconds to 0.1)
  OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$ROOT/scripts/bench_train_torch.py" lenet --batch 64 --iterations 312 \
    --limit 10000 | awk '{printf "%.3f", 19968 / $3}'
}
rounds=1
[ "$condition" = quiet ] && rounds=${PNG_ROUNDS:-3}
firsts=() seconds=() torches=()
for ((r = 0; r < rounds; r++)); do
  rm -rf "$WORK/png/data/train.cache" "$WORK/png/data/test.cache"
  firsts+=("$(png_run)") seconds+=("$(png_run)") torches+=("$(torch_png_s)")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
first=$(median "${firsts[@]}") second=$(median "${seconds[@]}") torch=$(median "${torches[@]}")
printf 'nncli lenet png: %.2f s end to end writing the cache, %.2f s reading it (19968 images; median of %d)\n' \
  "$first" "$second" "$rounds"
printf 'torch lenet png (preloaded): %.2f s (median of %d); PyTorch time / nncli time: %.2fx first run, %.2fx cached\n' \
  "$torch" "$rounds" "$(echo "$torch / $first" | bc -l)" "$(echo "$torch / $second" | bc -l)"
# With augmentation: nncli reading its cache (written above) against PyTorch's DataLoader over the PNG files.
augs=() loaders=()
for ((r = 0; r < rounds; r++)); do
  rm -rf "$WORK/png/out" && mkdir -p "$WORK/png/out"
  /usr/bin/time -f %e -o "$WORK/png/time" "$NNCLI" -q train -c "$WORK/png/lenet_png_aug.nntxt" -o "$WORK/png/out"
  augs+=("$(cat "$WORK/png/time")")
  loaders+=("$(OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$ROOT/scripts/bench_train_torch.py" lenet --batch 64 \
    --iterations 312 --csv "$WORK/png/data/train.csv" | awk '{printf "%.3f", 19968 / $3}')")
done
aug=$(median "${augs[@]}") loader=$(median "${loaders[@]}")
printf 'data pipeline (png, ImageAugmentation): nncli %.2f s, PyTorch DataLoader (2 workers) %.2f s: %.2fx (median of %d)\n' \
  "$aug" "$loader" "$(echo "$loader / $aug" | bc -l)" "$rounds"
stop_busy
done

# Data-parallel: the LeNet config on 1 and 2 MPI processes (same global batch per process: 128), when nncli
# was built with MPI and mpirun exists. The two processes share this machine's cores (1 thread each).
if command -v mpirun >/dev/null && "$NNCLI" --help | grep -q -- '--mpi'; then
  root_flag=""
  [ "$(id -u)" = 0 ] && root_flag=--allow-run-as-root
  for n in 1 2; do
    out=$WORK/out_mpi_$n
    rm -rf "$out" && mkdir -p "$out"
    start=$(date +%s.%N)
    OMP_NUM_THREADS=$((2 / n)) OMPI_MCA_btl_vader_single_copy_mechanism=none mpirun -n $n --oversubscribe \
      $root_flag "$NNCLI" -v -m train -c "$ROOT/sample_models/fashion_mnist_lenet/lenet_1epoch.nntxt" -o "$out" \
      --dataset "Training=$DATA/train.cache" --dataset "Validation=$DATA/test.cache" >"$WORK/mpi_$n.log" 2>&1
    secs=$(echo "$(date +%s.%N) - $start" | bc -l)
    reduce=$(grep -o 'all-reduce: .*' "$WORK/mpi_$n.log" | head -1)
    printf 'nncli -m train lenet, %d process(es): %.0f images/s end to end%s\n' "$n" \
      "$(echo "$IMAGES / $secs" | bc -l)" "${reduce:+ (gradient $reduce)}"
  done
fi
