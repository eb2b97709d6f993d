#!/usr/bin/env bash
# decode_param -> encode_param (.h5 and .protobuf) -> decode_param must give identical text files, i.e.
# bit-identical float32 values (the text is the shortest round-trip repr of each value).
#   param_roundtrip.sh NNCLI PARAMETER_FILE
set -u
nncli=$1; source=$2
"$nncli" -q decode_param -p "$source" -o first || exit 1
for ext in h5 protobuf; do
  "$nncli" -q encode_param -i first -p "encoded.$ext" || exit 1
  "$nncli" -q decode_param -p "encoded.$ext" -o "second_$ext" || exit 1
  diff -r first "second_$ext" >/dev/null || { echo "round trip through .$ext differs" >&2; exit 1; }
done
echo "files: $(ls first | wc -l)"
echo "values: $(for f in first/*.txt; do tail -n +2 "$f"; echo; done | grep -c .)"
echo "round trip exact"
