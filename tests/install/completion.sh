#!/usr/bin/env bash
# `nncli completion bash`: sourced in bash, it completes every subcommand of `nncli --help`, every option
# that `nncli <subcommand> --help` lists, and the choices of an option such as infer -t.
set -euo pipefail
nncli=$1
script=$(mktemp); trap 'rm -f "$script"' EXIT
"$nncli" completion bash >"$script"
source "$script"
complete -p nncli | grep -q _nncli || { echo "FAIL: no complete -F _nncli nncli"; exit 1; }

# complete WORD...: COMPREPLY for the command line "nncli WORD..." with the cursor on the last word.
complete_words() {
  COMP_WORDS=(nncli "$@"); COMP_CWORD=$#; COMPREPLY=()
  _nncli
  printf '%s\n' "${COMPREPLY[@]}"
}
status=0
fail() { echo "FAIL: $*"; status=1; }

subcommands=$("$nncli" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z_]+/ {print $1}')
[[ $(complete_words "" | sort) == $(sort <<<"$subcommands") ]] || fail "subcommands differ from nncli --help"
[[ $(complete_words -q inf) == infer ]] || fail "'nncli -q inf' does not complete to infer"
for sub in $subcommands; do
  offered=$(complete_words "$sub" --)
  for opt in $("$nncli" "$sub" --help | grep -oE -- '--[A-Za-z0-9][A-Za-z0-9_-]*' | sort -u); do
    grep -qx -- "$opt" <<<"$offered" || fail "nncli $sub: $opt not completed"
  done
done
[[ $(complete_words infer -t "" | tr '\n' ' ') == "float32 uint8 int8 int32 " ]] || fail "infer -t choices"
[[ $(complete_words infer --bat | tr '\n' ' ') == "--batch_size --batch-size " ]] || fail "infer --bat"
[[ $status == 0 ]] && echo "ok: $(wc -w <<<"$subcommands") subcommands and their options complete"
exit $status
