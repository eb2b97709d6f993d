#!/usr/bin/env bash
# Every `nncli [<subcommand>] --help` line fits 80 columns; the subcommands are read from `nncli --help`.
set -euo pipefail
nncli=$1
subcommands=$("$nncli" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z_]+/ {print $1}')
[[ -n $subcommands ]] || { echo "FAIL: no subcommands in nncli --help"; exit 1; }
status=0
for sub in "" $subcommands; do
  text=$("$nncli" $sub --help)
  [[ $text == *Usage:* ]] || { echo "FAIL: nncli $sub --help has no Usage line"; status=1; }
  long=$(awk 'length($0) > 80 {print length($0) ": " $0}' <<<"$text")
  if [[ -n $long ]]; then
    echo "FAIL: nncli $sub --help has lines over 80 columns:"; echo "$long"; status=1
  fi
done
[[ $status == 0 ]] && echo "ok: $(wc -w <<<"$subcommands") subcommands, every help line <= 80 columns"
exit $status
