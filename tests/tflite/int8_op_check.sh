#!/usr/bin/env bash
# One one-operator int8 model (int8_op_models.py CASE, built with flatc) against LiteRT.js: nncli infer's raw
# int8 outputs must equal the runtime's within ATOL steps (0: exactly) on seeded inputs over the whole int8 range.
#
#   int8_op_check.sh NNCLI SCRIPTS_DIR SCHEMA.fbs CASE ATOL [--litert-refuses]
# --litert-refuses: TFLite refuses the model at prepare time (int8 CONCATENATION needs every input on the
# output's scale and zero point; LiteRT.js only logs it and returns unwritten outputs): the test checks that it
# refuses, and nncli (which requantizes each input) is compared with Arm NN instead (skip without it).
set -u
nncli=$1; scripts=$2; schema=$3; name=$4; atol=$5; refuses=${6:-}
here=$(cd "$(dirname "$0")" && pwd)
litert_dir="${NN_LITERT_DIR:-$HOME/.cache/nncli/litert}"
command -v flatc >/dev/null || { echo "SKIP: flatc not installed"; exit 77; }
command -v node >/dev/null || { echo "SKIP: node is not installed"; exit 77; }
[ -d "$litert_dir/node_modules/@litertjs/core" ] || { echo "SKIP: @litertjs/core not in $litert_dir"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run_js="$scripts/litert/litert_run.mjs"
python3 "$here/int8_op_models.py" "$name" "$work/$name.json" && flatc -o "$work" -b "$schema" "$work/$name.json" || {
  echo "FAIL: could not write $name.tflite"; exit 1; }
model="$work/$name.tflite"
mapfile -t inputs < <(node "$run_js" inputs "$model" "$work/in" 7 2>"$work/rt.err")
[ ${#inputs[@]} -gt 0 ] || { echo "FAIL: no inputs: $(grep -v '^INFO\|^WARNING' "$work/rt.err")"; exit 1; }
node "$run_js" run "$model" "$work/rt" "${inputs[@]}" 2>"$work/rt.err" || {
  echo "FAIL: LiteRT.js failed: $(grep -v '^INFO\|^WARNING' "$work/rt.err")"; exit 1; }
prepared=1
grep -q "Failed to allocate tensors" "$work/rt.err" && prepared=0
if [ -n "$refuses" ]; then
  [ $prepared = 0 ] || { echo "FAIL: LiteRT.js prepared $name, which TFLite refuses"; exit 1; }
  echo "LiteRT refuses it: $(grep -m1 'failed to' "$work/rt.err")"
  /usr/bin/python3 "$scripts/armnn/armnn_run.py" run "$model" "$work/rt" "${inputs[@]}" 2>"$work/an.err"
  rc=$?
  [ $rc -eq 77 ] && exit 77
  [ $rc -eq 0 ] || { echo "FAIL: Arm NN failed: $(tail -2 "$work/an.err")"; exit 1; }
else
  [ $prepared = 1 ] || { echo "FAIL: LiteRT.js could not prepare $name: $(grep -m1 'failed' "$work/rt.err")"; exit 1; }
fi
"$nncli" -q infer --format npy -o "$work/nn" "$model" "${inputs[@]}" || { echo "FAIL: nncli infer failed"; exit 1; }
node "$run_js" compare "$work/nn_0.npy" "$work/rt_0.npy" "$atol" 0
