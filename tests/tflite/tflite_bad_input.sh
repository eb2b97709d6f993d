#!/usr/bin/env bash
# Hostile .tflite files made from an nncli export (flatc turns it into JSON, python3 edits it, flatc turns it
# back): each must end in exit 1 or 3 with one clear error line naming the problem.
#
#   tflite_bad_input.sh NNCLI SCHEMA.fbs MODEL.nnp
set -u
nncli=$1; schema=$2; source=$3
command -v flatc >/dev/null || { echo "SKIP: flatc not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$nncli" -q convert "$source" good.tflite || { echo "FAIL: export failed"; exit 1; }
flatc -t --strict-json --raw-binary "$schema" -- good.tflite || { echo "FAIL: flatc could not read it"; exit 1; }
status=0
expect() {  # expect FILE EXIT TEXT
  "$nncli" -q dump "$1" >/dev/null 2>err.txt
  local rc=$?
  if [ $rc -ne "$2" ] || ! grep -qF -- "$3" err.txt || [ "$(wc -l <err.txt)" -ne 1 ]; then
    echo "FAIL: $1: want exit $2 and one line with '$3', got exit $rc: $(cat err.txt)"; status=1
  else
    echo "OK: $1: $(cat err.txt)"
  fi
}
variant() {  # variant NAME PYTHON-STATEMENTS (m is the model as a dict)
  python3 -c "import json; m = json.load(open('good.json')); $2; json.dump(m, open('$1.json', 'w'))" &&
    flatc -b "$schema" "$1.json"  # writes $1.tflite (the schema's file_extension)
}
head -c $(( $(stat -c %s good.tflite) / 2 )) good.tflite > truncated.tflite
expect truncated.tflite 1 "malformed"
printf 'TFL2 is not a model at all, just bytes' > garbage.tflite
expect garbage.tflite 1 "not a TFLite file"
variant bad_buffer "m['subgraphs'][0]['tensors'][1]['buffer'] = 999"
expect bad_buffer.tflite 1 "names buffer 999"
variant bad_shape "t = [t for t in m['subgraphs'][0]['tensors'] if t.get('buffer', 0) > 0][0]; t['shape'][0] += 1"
expect bad_shape.tflite 1 "but its buffer holds"
variant bad_index "m['subgraphs'][0]['operators'][0]['inputs'][0] = 12345"
expect bad_index.tflite 1 "names tensor 12345"
variant unknown_ops "m['operator_codes'][0].update(builtin_code=32, deprecated_builtin_code=32, custom_code='MyOp'); m['operator_codes'].append({'builtin_code': 250, 'deprecated_builtin_code': 127})"
expect unknown_ops.tflite 3 "2 operator(s) are not supported: builtin operator 250, custom operator 'MyOp'"
exit $status
