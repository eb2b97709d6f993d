#!/usr/bin/env bash
# TOCO's bias quirk: rank-1 per-channel int32 biases whose quantization names the filter's axis
# (quantized_dimension 3, as in tflite-micro's person_detect). sensiml_model_runner_int8 with its two per-channel
# biases so marked must import (a warning under -v) and give LiteRT's outputs for the unmarked file (full LiteRT
# refuses the marked one; TFLite Micro runs it); scales that truly disagree with a tensor stay refused.
#
#   tflite_toco_bias.sh NNCLI SCHEMA.fbs SCRIPTS_DIR TESTDATA_TFLITE_DIR
set -u
source "$(cd "$(dirname "$0")" && pwd)/expect_refusal.sh"
nncli=$1; schema=$2; scripts=$3; td=$4
command -v flatc >/dev/null || { echo "SKIP: flatc not installed"; exit 77; }
command -v node >/dev/null || { echo "SKIP: node is not installed (needed for the comparison)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
flatc -t --strict-json --raw-binary "$schema" -- "$td/sensiml_model_runner_int8.tflite" || {
  echo "FAIL: flatc could not read the model"; exit 1; }
variant() {  # variant NAME PYTHON-STATEMENTS (t: each rank-1 tensor with several scales, q its quantization)
  python3 -c "
import json
m = json.load(open('sensiml_model_runner_int8.json'))
for t in m['subgraphs'][0]['tensors']:
    q = t.get('quantization', {})
    if len(t.get('shape', [])) == 1 and len(q.get('scale', [])) > 1:
        $2
json.dump(m, open('$1.json', 'w'))" && flatc -b "$schema" "$1.json"
}
status=0
variant toco_bias "q['quantized_dimension'] = 3"
"$nncli" -v infer --format npy -o nn toco_bias.tflite "$td/expected/sensiml_model_runner_int8/t00/in_0.npy" \
    2>err.txt || { echo "FAIL: the TOCO-style biases were refused: $(cat err.txt)"; exit 1; }
grep -q "quantized_dimension 3 (as TOCO wrote biases): read on axis 0" err.txt || {
  echo "FAIL: no warning under -v: $(cat err.txt)"; status=1; }
node "$scripts/litert/litert_run.mjs" compare nn_0.npy \
    "$td/expected/sensiml_model_runner_int8/t00/expected_out_0.npy" 0.0079 0 || status=1
expect_refused() { expect_refusal "$1" "$2" "$nncli" -q dump "$1"; }  # expect_refused FILE TEXT
variant half_scales "q['quantized_dimension'] = 3; q['scale'] = q['scale'][::2]; q['zero_point'] = q['zero_point'][::2]"
expect_refused half_scales.tflite "8 scales do not match quantized_dimension 3"
variant bias_axis_1 "q['quantized_dimension'] = 0; t['shape'] = [1, t['shape'][0]]"
expect_refused bias_axis_1.tflite "16 scales do not match quantized_dimension 0"
exit $status
