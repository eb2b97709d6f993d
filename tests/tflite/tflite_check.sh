#!/usr/bin/env bash
# One TFLite cross-check: export MODEL... to .tflite with nncli, make deterministic inputs of the model's input
# shapes, run nncli infer (on the source) and a TFLite runtime (on the export), and compare every output.
#
#   tflite_check.sh NNCLI SCRIPTS_DIR RUNTIME [--atol X] [--rtol X] [--batch N] [--int8] [--dynamic N] [--channel-last]
#                  [--strict] [--armnn-skip REASON] -- MODEL...
# --int8: full-integer export calibrated on 8 random samples; the runtime's raw int8 outputs must be within
# 1 step of nncli's own run of the same .tflite (imported with TFLite's integer rounding reproduced).
# --dynamic N: exported with --dynamic-batch (shape 1, shape_signature -1); the runtime runs the static shape
# (LiteRT.js 2.5.3 and Arm NN 20.08 cannot resize inputs: that part is skipped with a message), and nncli's
# own import of the .tflite must give the source's outputs at batch N.
# --channel-last: exported with --channel-last; the NNP's rank-4 data are NHWC, fed to every runner as they are.
# RUNTIME: litert (LiteRT.js under node, scripts/setup_litert.sh) or armnn (Debian python3-pyarmnn, CpuRef).
# Rank-4 data are (N, C, H, W) for nncli and NHWC in the .tflite; the runners reorder them.
# A missing runtime skips (77) with a message; so does a model with functions the exporter lacks (exit 3),
# unless --strict (a model written for the exporter: exit 3 fails). --armnn-skip: a known Arm NN 20.08 defect
# (named in REASON) makes its run meaningless; it skips with that reason.
set -u
nncli=$1; scripts=$2; runtime=$3; shift 3
atol=1e-4; rtol=1e-4; batch=1; int8=0; dynamic=0; export_opts=(); nchw=(--nchw); strict=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    --atol) atol=$2; shift 2 ;;
    --rtol) rtol=$2; shift 2 ;;
    --batch) batch=$2; shift 2 ;;
    --int8) int8=1; atol=1; rtol=0; shift ;;
    --dynamic) dynamic=$2; shift 2 ;;
    --channel-last) export_opts+=(--channel-last); nchw=(); shift ;;
    --strict) strict=1; shift ;;
    --armnn-skip) [ "$runtime" = armnn ] && { echo "SKIP: $2"; exit 77; }; shift 2 ;;
    *) echo "tflite_check.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
shift
litert_dir="${NN_LITERT_DIR:-$HOME/.cache/nncli/litert}"
if ! command -v node >/dev/null; then
  echo "SKIP: node is not installed (needed for LiteRT.js and the comparison)"; exit 77
fi
if [ ! -d "$litert_dir/node_modules/@litertjs/core" ]; then
  echo "SKIP: @litertjs/core not found in $litert_dir (run scripts/setup_litert.sh)"; exit 77
fi
if [ "$runtime" = armnn ] && ! /usr/bin/python3 -c "import pyarmnn" 2>/dev/null; then
  echo "SKIP: Arm NN not found (apt-get install python3-pyarmnn libarmnn-cpuref-backend22)"; exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run_js="$scripts/litert/litert_run.mjs"

"$nncli" -q convert "$@" "$work/source.nnp" 2>"$work/convert.err" || {
  echo "FAIL: nncli convert to NNP failed: $(cat "$work/convert.err")"; exit 1; }
layout=("${nchw[@]}")
if [ $int8 = 1 ]; then  # calibration data: 8 samples of the float model's input shape
  "$nncli" -q convert -b 8 "${export_opts[@]}" "$work/source.nnp" "$work/float8.tflite" 2>"$work/convert.err" &&
    node "$run_js" inputs "$work/float8.tflite" "$work/cal" 11 "${nchw[@]}" >/dev/null 2>"$work/rt.err" || {
    echo "FAIL: could not make calibration data: $(cat "$work/convert.err")"; exit 1; }
  "$nncli" -q convert -b "$batch" "${export_opts[@]}" --quantization --dataset "$work/cal/input_0.npy" \
      "$work/source.nnp" "$work/model.tflite" 2>"$work/convert.err"
  rc=$?
  layout=()
elif [ "$dynamic" != 0 ]; then
  "$nncli" -q convert --dynamic-batch "${export_opts[@]}" "$work/source.nnp" "$work/model.tflite" 2>"$work/convert.err"
  rc=$?
else
  "$nncli" -q convert -b "$batch" "${export_opts[@]}" "$work/source.nnp" "$work/model.tflite" 2>"$work/convert.err"
  rc=$?
fi
if [ $rc -eq 3 ] && [ $strict = 0 ]; then
  echo "SKIP: not exportable: $(cat "$work/convert.err")"; exit 77
elif [ $rc -ne 0 ]; then
  echo "FAIL: nncli convert exited $rc: $(cat "$work/convert.err")"; exit 1
fi
mapfile -t inputs < <(node "$run_js" inputs "$work/model.tflite" "$work/in" 7 "${layout[@]}" 2>"$work/rt.err") || {
  echo "FAIL: LiteRT.js could not load the export: $(grep -v '^INFO\|^WARNING' "$work/rt.err")"; exit 1; }
if [ "$runtime" = armnn ]; then
  /usr/bin/python3 "$scripts/armnn/armnn_run.py" run "$work/model.tflite" "$work/rt" "${layout[@]}" "${inputs[@]}" \
      2>"$work/rt.err"
  rc=$?
  [ $rc -eq 77 ] && exit 77
  [ $rc -eq 0 ] || { echo "FAIL: Arm NN failed: $(grep -v '^ *^' "$work/rt.err" | tail -2)"; exit 1; }
else
  node "$run_js" run "$work/model.tflite" "$work/rt" "${layout[@]}" "${inputs[@]}" 2>"$work/rt.err" || {
    echo "FAIL: LiteRT.js failed: $(grep -v '^INFO\|^WARNING' "$work/rt.err")"; exit 1; }
fi
own="$work/source.nnp"
[ $int8 = 1 ] && own="$work/model.tflite"
"$nncli" -q infer -b "$batch" --format npy -o "$work/nn" "$own" "${inputs[@]}" || {
  echo "FAIL: nncli infer failed"; exit 1; }
status=0 outputs=0
for rt_out in "$work"/rt_*.npy; do
  [ -f "$rt_out" ] || continue
  nn_out="$work/nn_${rt_out##*/rt_}"
  outputs=$((outputs + 1))
  [ -f "$nn_out" ] || { echo "FAIL: nncli infer wrote no ${nn_out##*/}"; status=1; continue; }
  node "$run_js" compare "$nn_out" "$rt_out" "$atol" "$rtol" || status=1
done
[ $outputs -gt 0 ] || { echo "FAIL: $runtime produced no output"; status=1; }
if [ "$dynamic" != 0 ]; then  # batch N: inputs of a static export at N, nncli's import of the dynamic model
  echo "SKIP (part): $runtime cannot resize the inputs to batch $dynamic;" \
       "batch $dynamic is checked through nncli's import"
  "$nncli" -q convert -b "$dynamic" "${export_opts[@]}" "$work/source.nnp" "$work/static.tflite" \
      2>"$work/convert.err" || {
    echo "FAIL: static export at batch $dynamic: $(cat "$work/convert.err")"; exit 1; }
  # The same values twice: (N, C, H, W) for the source, NHWC for the .tflite.
  mapfile -t src_inputs < <(node "$run_js" inputs "$work/static.tflite" "$work/in_src" 13 "${nchw[@]}" 2>/dev/null)
  mapfile -t dyn_inputs < <(node "$run_js" inputs "$work/static.tflite" "$work/in_dyn" 13 2>/dev/null)
  "$nncli" -q infer -b "$dynamic" --format npy -o "$work/src_b" "$work/source.nnp" "${src_inputs[@]}" &&
    "$nncli" -q infer -b "$dynamic" --format npy -o "$work/dyn_b" "$work/model.tflite" "${dyn_inputs[@]}" || {
    echo "FAIL: nncli infer -b $dynamic failed"; exit 1; }
  for src_out in "$work"/src_b_*.npy; do
    node "$run_js" compare "$work/dyn_b_${src_out##*/src_b_}" "$src_out" "$atol" "$rtol" "${nchw[@]}" || status=1
  done
fi
exit $status
