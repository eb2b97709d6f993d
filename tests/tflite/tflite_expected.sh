#!/usr/bin/env bash
# One import check: nncli infer on a real .tflite file with a case's inputs (in_<k>.npy) must give the
# runtime's expected outputs (expected_out_<j>.npy, LiteRT.js; Arm NN agrees) within ATOL + RTOL*|expected|.
#
#   tflite_expected.sh NNCLI SCRIPTS_DIR MODEL.tflite CASE_DIR ATOL RTOL
# node is needed only for the comparison; without it the case skips (77).
set -u
nncli=$1; scripts=$2; model=$3; case_dir=$4; atol=$5; rtol=$6
command -v node >/dev/null || { echo "SKIP: node is not installed (needed for the comparison)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inputs=()
for k in 0 1 2 3 4 5 6 7; do
  [ -f "$case_dir/in_$k.npy" ] && inputs+=("$case_dir/in_$k.npy")
done
"$nncli" -q infer --format npy -o "$work/nn" "$model" "${inputs[@]}" 2>"$work/err" || {
  echo "FAIL: nncli infer failed: $(cat "$work/err")"; exit 1; }
status=0 n=0
for expected in "$case_dir"/expected_out_[0-9].npy "$case_dir"/expected_out_[0-9][0-9].npy; do
  [ -f "$expected" ] || continue
  j=${expected##*/expected_out_}; j=${j%.npy}
  n=$((n + 1))
  [ -f "$work/nn_$j.npy" ] || { echo "FAIL: nncli wrote no output $j"; status=1; continue; }
  node "$scripts/litert/litert_run.mjs" compare "$work/nn_$j.npy" "$expected" "$atol" "$rtol" || status=1
done
[ $n -gt 0 ] || { echo "FAIL: no expected_out_<j>.npy in $case_dir"; status=1; }
exit $status
