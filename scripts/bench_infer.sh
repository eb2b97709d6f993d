#!/usr/bin/env bash
# Inference latency, nncli beside ONNX Runtime, on a quiet machine and with two busy loops per core.
# For each ONNX model: ORT (onnxruntime-node, 2 intra-op threads), nncli (default threads) and nncli
# with one thread (OMP_NUM_THREADS=1), each as the median ms of the runs of SECS seconds in process (nncli profile's
# median_ms, ORT's median run): on a shared machine a mean moves with whatever else ran. The sides take turns,
# ROUNDS times (default 3), and each figure is the median of its rounds, so a burst of other load on the machine
# lands on one round of one side rather than on a whole figure.
# Usage: [ROUNDS=3] scripts/bench_infer.sh [seconds-per-round] [model.onnx ...]
#   with no models: PyTorch's LeNet (batch 1) and small ResNet (batch 32) exported by bench_engine_torch.py; a
#   tf2onnx-style NHWC SqueezeNet 32x32 and a CIFAR ResNet-20 at batch 1, a transformer encoder at batch 1 and 32
#   (export_bench_models.py small); then torchvision's resnet18, mobilenet_v2, efficientnet_b0, squeezenet1_1,
#   mobilenet_v3_small, shufflenet_v2_x1_0, regnet_y_400mf, densenet121 and googlenet at batch 1 and 32
#   (export_torchvision.py, export_bench_models.py torchvision; TORCHVISION=0 leaves them out). Before timing a
#   model, nncli infer and ONNX Runtime run it on the same input: a row whose outputs differ (1e-4) says so.
#   Peak memory: nncli's maximum RSS while profiling. Last, bench_infer_targets.py checks issue 37's targets over
#   the rows (>= 1.0x quiet, >= 0.9x busy, geometric mean >= 1.15x quiet, default <= 1.2x its one-thread time).
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-2}
shift || true
ROUNDS=${ROUNDS:-3}
BUILD=${BUILD:-build}
NNCLI=${NNCLI:-$BUILD/apps/nncli/nncli}
ORT_DIR=${NN_ORT_DIR:-$HOME/.cache/nncli/ort}
work=$(mktemp -d)
source scripts/busy_loops.sh
trap 'stop_busy; rm -rf "$work"' EXIT
models=("$@")
if [ ${#models[@]} -eq 0 ]; then
  /usr/bin/python3 scripts/bench_engine_torch.py export "$work" >/dev/null 2>&1 ||
    { echo "bench_infer: PyTorch is needed to export the default models (or give ONNX files)"; exit 1; }
  /usr/bin/python3 scripts/export_bench_models.py "$work" small >/dev/null 2>&1 ||
    { echo "bench_infer: export_bench_models.py failed"; exit 1; }
  models=("$work/lenet_b1.onnx" "$work/small_resnet_b32.onnx" "$work/squeezenet_nhwc_b1.onnx"
    "$work/resnet20_b1.onnx" "$work/transformer_b1.onnx" "$work/transformer_b32.onnx")
  if [ "${TORCHVISION:-1}" = 1 ]; then
    if /usr/bin/python3 scripts/export_torchvision.py "$work" 1 32 >/dev/null 2>&1 &&
      /usr/bin/python3 scripts/export_bench_models.py "$work" torchvision >/dev/null 2>&1; then
      for n in resnet18 mobilenet_v2 efficientnet_b0 squeezenet1_1 mobilenet_v3_small shufflenet_v2_x1_0 \
        regnet_y_400mf densenet121 googlenet; do
        models+=("$work/${n}_b1.onnx" "$work/${n}_b32.onnx")
      done
    else
      echo "bench_infer: torchvision models left out (python3-torchvision is needed to export them)"
    fi
  fi
fi
# nncli's median ms per run (profile: executors only, batch from the file; whole iterations, no timer around each
# function, where the binary has --no-function-times: NNCLI=... may name an older one).
whole_only=$("$NNCLI" profile --help 2>/dev/null | grep -q -- --no-function-times && echo --no-function-times || true)
nncli_ms() {
  /usr/bin/time -f %M -o "$work/rss" "$NNCLI" -q "$@" profile -c "$model" -o "$work/prof" --only executors \
    --duration "$SECS" --format json $whole_only 2>/dev/null |
    /usr/bin/python3 -c 'import json,sys; t=json.load(sys.stdin)["targets"][0]["iteration"]; print("%.4f" % t["median_ms"])' \
      2>/dev/null || echo nan  # a failed run leaves its cell nan instead of ending the table
}
ort_ms() {
  if command -v node >/dev/null && [ -d "$ORT_DIR/node_modules/onnxruntime-node" ]; then
    node scripts/ort/ort_bench.js "$model" x "$SECS" 2 | awk '{print $(NF - 1)}'
  else
    echo nan
  fi
}
# "" when nncli infer's outputs equal ONNX Runtime's on the same input (1e-4 absolute and relative), else a note.
differs() {
  local ort_js=scripts/ort/ort_run.js d="$work/check" j
  command -v node >/dev/null && [ -d "$ORT_DIR/node_modules/onnxruntime-node" ] || return 0
  rm -rf "$d" && mkdir -p "$d"
  node $ort_js inputs "$model" "$d" 0 >/dev/null 2>&1 && node $ort_js run "$model" "$d/ort" "$d"/input_*.npy \
    >/dev/null 2>&1 || { echo " (ORT failed)"; return 0; }
  "$NNCLI" -q infer --format npy -o "$d/nn" "$model" "$d"/input_*.npy >/dev/null 2>&1 ||
    { echo " (nncli infer failed)"; return 0; }
  for j in "$d"/ort_*.npy; do
    node $ort_js compare "$d/nn_${j##*_}" "$j" 1e-4 1e-4 >/dev/null 2>&1 || { echo " (outputs differ)"; return 0; }
  done
}
median() { /usr/bin/python3 -c "import statistics,sys; v=[float(x) for x in sys.argv[1:]]; print('%.4f' % statistics.median(v))" "$@"; }
# Runs the given measuring functions in turns, ROUNDS times; sets each function's named variable to its median.
rounds() {
  declare -A seen=()
  local r f
  for ((r = 0; r < ROUNDS; r++)); do
    for f in "$@"; do seen[$f]+=" $($f)"; done
  done
  for f in "$@"; do printf -v "fig_$f" '%s' "$(median ${seen[$f]})"; done
}
nncli_one_ms() { OMP_NUM_THREADS=1 nncli_ms; }  # not --threads: older nncli binaries can be compared (NNCLI=...)
# The larger of a/b and c/d (nncli's default over its one-thread time, quiet and busy).
worst_of() { /usr/bin/python3 -c "import sys; a,b,c,d=map(float,sys.argv[1:]); print(max(a/b, c/d))" "$@" 2>/dev/null || echo nan; }
ratio() { /usr/bin/python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print('%.2fx' % (a/b) if b==b and b>0 else '-')" "$1" "$2"; }
echo "nncli: $NNCLI ($(nproc) cores); ms per run (median of $ROUNDS rounds of ${SECS} s), ratio = ORT time / nncli time (> 1: nncli faster)"
printf '| %-22s | %9s | %9s | %6s | %9s | %9s | %9s | %6s | %9s | %9s | %8s |\n' model "ORT quiet" "nn quiet" \
  ratio "nn 1 thr" "ORT busy" "nn busy" ratio "nn 1 thr" "def/1thr" "nn MiB"
: >"$work/figures"
for model in "${models[@]}"; do
  name=$(basename "$model" .onnx)$(differs)
  rounds ort_ms nncli_ms nncli_one_ms
  oq=$fig_ort_ms nq=$fig_nncli_ms q1=$fig_nncli_one_ms rss=$(( $(cat "$work/rss" 2>/dev/null || echo 0) / 1024 ))
  start_busy
  rounds ort_ms nncli_ms nncli_one_ms
  ob=$fig_ort_ms nb=$fig_nncli_ms n1=$fig_nncli_one_ms
  stop_busy
  # def/1thr: nncli's default against its own one-thread figure, the worse of quiet and busy (> 1: slower).
  printf '| %-22s | %9s | %9s | %6s | %9s | %9s | %9s | %6s | %9s | %9s | %8s |\n' "$name" "$oq" "$nq" \
    "$(ratio "$oq" "$nq")" "$q1" "$ob" "$nb" "$(ratio "$ob" "$nb")" "$n1" \
    "$(ratio "$(worst_of "$nq" "$q1" "$nb" "$n1")" 1)" "$rss"
  echo "$name $oq $nq $q1 $ob $nb $n1" >>"$work/figures"
done
# Issue 37's targets over the rows above: every row >= 1.0x quiet and >= 0.9x busy, the geometric mean of the
# quiet ratios >= 1.15x, nncli's default never slower than its one-thread figure by more than 1.2x.
/usr/bin/python3 scripts/bench_infer_targets.py "$work/figures"
