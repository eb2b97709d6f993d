#!/usr/bin/env bash
# Checks `nncli function_info --api N` at every level of upstream's api_levels.yaml: API_LEVEL N, then exactly
# the "<Type>_<argcode>" names of levels 1..N (a later entry of a type replacing the earlier one), as sets.
#   api_levels_upstream.sh NNCLI API_LEVELS_YAML
set -u
nncli=$1; yaml=$2
fail=0
newest=$(grep -cE '^[0-9]+:' "$yaml")
for level in $(seq 1 "$newest"); do
  want=$(awk -v L="$level" '/^[0-9]+:/ { l = $1 + 0; next }
    l <= L && /^  / { name = $1; sub(/:$/, "", name); type = name; sub(/_.*/, "", type); last[type] = name }
    END { for (t in last) print last[t] }' "$yaml" | sort)
  out=$("$nncli" -q function_info --api "$level") || { echo "FAIL: --api $level exits $?" >&2; fail=1; continue; }
  [ "$(head -1 <<<"$out")" = "API_LEVEL: $level" ] || { echo "FAIL: --api $level: $(head -1 <<<"$out")" >&2; fail=1; }
  got=$(tail -n +2 <<<"$out" | sort)
  if [ "$got" != "$want" ]; then
    echo "FAIL: --api $level differs from $yaml (< upstream, > nncli):" >&2
    diff <(echo "$want") <(echo "$got") | grep '^[<>]' >&2
    fail=1
  fi
done
[ "$fail" = 0 ] && echo "function_info --api 1..$newest match $yaml"
exit $fail
