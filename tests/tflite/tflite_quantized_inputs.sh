#!/usr/bin/env bash
# Quantized graph inputs and outputs against LiteRT.js: a float array given to an int8 input is real values,
# quantized as the runtime's own QUANTIZE does; an integer array is the raw integers; anything else is refused;
# --dequantize gives quantized outputs as real values; --format json describes them. From sensiml_model_runner_int8 (float in -> QUANTIZE
# (scale 1, zero point -128) -> int8 body -> DEQUANTIZE -> float out), through flatc's JSON:
#   float_in.tflite   without the DEQUANTIZE: LiteRT quantizes the real values itself, gives the raw int8 output
#   int8_in.tflite    without QUANTIZE and DEQUANTIZE: int8 in, int8 out (what nncli is given)
#   float_io.tflite   the whole model: LiteRT's real-valued output, for --dequantize
#   quantize.tflite   the QUANTIZE alone: LiteRT's raw int8 of the real values, given to nncli as integers
#
#   tflite_quantized_inputs.sh NNCLI SCHEMA.fbs SCRIPTS_DIR TESTDATA_TFLITE_DIR
set -u
source "$(cd "$(dirname "$0")" && pwd)/expect_refusal.sh"
nncli=$1; schema=$2; scripts=$3; td=$4
command -v flatc >/dev/null || { echo "SKIP: flatc not installed"; exit 77; }
command -v node >/dev/null || { echo "SKIP: node is not installed (needed for LiteRT.js)"; exit 77; }
litert_dir="${NN_LITERT_DIR:-$HOME/.cache/nncli/litert}"
[ -d "$litert_dir/node_modules/@litertjs/core" ] || {
  echo "SKIP: @litertjs/core not found in $litert_dir (run scripts/setup_litert.sh)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
run_js="$scripts/litert/litert_run.mjs"
flatc -t --strict-json --raw-binary "$schema" -- "$td/sensiml_model_runner_int8.tflite" || {
  echo "FAIL: flatc could not read the model"; exit 1; }
variant() {  # variant NAME INPUT_TENSOR OUTPUT_TENSOR FIRST_OP END_OP
  python3 -c "
import json
m = json.load(open('sensiml_model_runner_int8.json'))
g = m['subgraphs'][0]
codes = [m['operator_codes'][op.get('opcode_index', 0)]['deprecated_builtin_code'] for op in g['operators']]
assert codes[0] == 114 and codes[-1] == 6, codes  # QUANTIZE first, DEQUANTIZE last
g['inputs'], g['outputs'], g['operators'] = [$2], [$3], g['operators'][$4:$5]
json.dump(m, open('$1.json', 'w'))" && flatc -b "$schema" "$1.json"
}
variant float_in 18 0 0 -1 && variant int8_in 1 0 1 -1 && variant float_io 18 19 0 None &&
  variant quantize 18 1 0 1 || {
  echo "FAIL: could not write the variants"; exit 1; }
# Real values around the input's range (-128..127 after the zero point: 0..255), saturating at both ends.
node -e "
const {writeNpy} = require('$scripts/npy_common.cjs');
const fs = require('fs');
const real = Float32Array.from({length: 90}, (_, k) => -20.3 + k * 3.37);
writeNpy('real.npy', 'float32', [1, 90], real);
fs.writeFileSync('real.bin', Buffer.from(real.buffer));
writeNpy('flags.npy', 'bool', [1, 90], new Uint8Array(90));
writeNpy('wide.npy', 'int32', [1, 90], Int32Array.from({length: 90}, (_, k) => k * 3));
" || { echo "FAIL: could not write the inputs"; exit 1; }
for model in float_in float_io quantize; do
  node "$run_js" run $model.tflite rt_$model real.npy 2>rt.err || {
    echo "FAIL: LiteRT.js failed on $model: $(grep -v '^INFO\|^WARNING' rt.err)"; exit 1; }
done
node -e "
const {readNpy} = require('$scripts/npy_common.cjs');
require('fs').writeFileSync('q.bin', Buffer.from(readNpy('rt_quantize_0.npy').data.buffer));
" || { echo "FAIL: could not write q.bin"; exit 1; }
status=0
check() {  # check WHAT EXPECTED ATOL NNCLI-ARGS...
  local what=$1 expected=$2 atol=$3; shift 3
  rm -f nn_0.npy
  if ! "$nncli" -q infer --format npy -o nn "$@" 2>err.txt; then
    echo "FAIL: $what: nncli infer failed: $(cat err.txt)"; status=1
  elif node "$run_js" compare nn_0.npy "$expected" "$atol" 0 >cmp.txt; then
    echo "OK: $what: $(cat cmp.txt)"
  else
    echo "FAIL: $what: $(cat cmp.txt)"; status=1
  fi
}
check "float .npy = real values" rt_float_in_0.npy 0 int8_in.tflite real.npy
check "float32 .bin = real values" rt_float_in_0.npy 0 -t float32 int8_in.tflite real.bin
check "--dequantize" rt_float_io_0.npy 1e-6 --dequantize int8_in.tflite real.npy
check "int8 .npy = raw integers" rt_float_in_0.npy 0 int8_in.tflite rt_quantize_0.npy
check "int8 .bin (-t int8) = raw integers" rt_float_in_0.npy 0 -t int8 int8_in.tflite q.bin
refused() { expect_refusal "$1" "$2" "$nncli" -q infer "${@:3}"; }  # refused WHAT TEXT NNCLI-ARGS...
refused "a bool array" "input 'reshape_input_int8' (int8, scale 1, zero point -128): 'flags.npy' holds bool values" \
    int8_in.tflite flags.npy
refused "integers outside int8" "integer 129 at index 43 is outside int8 (-128 to 127)" int8_in.tflite wide.npy
"$nncli" -q infer --format json int8_in.tflite real.npy >out.json 2>err.txt &&
  grep -qF '"quantization":{"type":"int8","scale":0.003906,"zero_point":-128,"dequantized":false}' out.json || {
  echo "FAIL: --format json does not describe the quantized output: $(cat out.json err.txt)"; status=1; }
exit $status
