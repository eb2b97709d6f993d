#!/usr/bin/env bash
# Checks `nncli function_info` on one golden directory against upstream's function_info_{nnb,onnx}.txt
# (+ .stderr.txt) as sets. Where this nncli has the NNB/ONNX support table, -f NNB/-f ONNX must give the same
# supported (stdout) and unsupported (stderr) sets; where it does not, the nnabla mode must list exactly the
# model's functions that libnn has and report the others on stderr with exit status 3.
#   function_info_golden.sh NNCLI TESTDATA_DIR GOLDEN_MODEL_DIR
set -u
nncli=$1; testdata=$2; dir=$3
fail=0
problem() { echo "FAIL: $*" >&2; fail=1; }
# The list lines of a golden stdout/stderr file (no Importing/Expanding/header lines), sorted.
golden_list() { [ -f "$1" ] && grep -vE '^(Importing |  ?Expanding |nnabla)' "$1" | grep -v '^$' | sort -u; }
work=$(mktemp -d "${TMPDIR:-/tmp}/nncli_fi.XXXXXX")
trap 'rm -rf "$work"' EXIT
registry=$("$nncli" -q function_info | sort -u)
known_onnx=$(grep -v '^#' "$(dirname "$0")/onnx_known_differences.txt" | sort -u)
drop_known() { if [ "$1" = onnx ]; then comm -23 - <(echo "$known_onnx"); else cat; fi; }

for target in nnb onnx; do
  golden=$dir/function_info_$target.txt
  [ -f "$golden" ] || continue
  model=$(sed -n 's/^Importing //p' "$golden" | head -1)
  [ -n "$model" ] || { problem "$golden names no model"; continue; }
  want_ok=$(golden_list "$golden")
  want_bad=$(golden_list "$dir/function_info_$target.stderr.txt")
  upper=$(echo "$target" | tr a-z A-Z)
  (cd "$testdata" && "$nncli" -q function_info -f "$upper" "$model") >"$work/out" 2>"$work/err"
  status=$?
  if [ $status = 3 ] && grep -q "not built in this nncli" "$work/err"; then
    all=$(printf '%s\n%s\n' "$want_ok" "$want_bad" | grep -v '^$' | sort -u)
    want_ok=$(comm -12 <(echo "$all") <(echo "$registry"))
    want_bad=$(comm -23 <(echo "$all") <(echo "$registry"))
    (cd "$testdata" && "$nncli" -q function_info "$model") >"$work/out" 2>"$work/err"
    status=$?
    mode="nnabla mode ($upper table not built)"
  else
    mode="-f $upper"
  fi
  got_ok=$(grep -vE '^nnabla' "$work/out" | grep -v '^$' | sort -u | drop_known $target)
  got_bad=$(grep -vE '^(nnabla|nncli)' "$work/err" | grep -v '^$' | sort -u | drop_known $target)
  want_ok=$(echo "$want_ok" | grep -v '^$' | drop_known $target)
  want_bad=$(echo "$want_bad" | grep -v '^$' | drop_known $target)
  want_status=0; [ -n "$want_bad" ] && want_status=3
  # A known difference alone may change the exit status.
  [ "$target" = onnx ] && [ -z "$want_bad" ] && [ "$status" = 3 ] && status=0
  [ "$status" = "$want_status" ] || problem "$model $mode: exit $status, expected $want_status"
  [ "$got_ok" = "$want_ok" ] || problem "$model $mode: supported set differs: got [$(echo $got_ok)] want [$(echo $want_ok)]"
  [ "$got_bad" = "$want_bad" ] || problem "$model $mode: unsupported set differs: got [$(echo $got_bad)] want [$(echo $want_bad)]"
  if [ $fail != 0 ]; then echo "--- stderr:" >&2; head -20 "$work/err" >&2; fi
done
exit $fail
