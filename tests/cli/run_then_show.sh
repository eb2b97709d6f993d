#!/usr/bin/env bash
# Runs a command, then prints what it wrote so cli_case.sh can check the content through stdout.
#   run_then_show.sh cat FILE -- COMMAND...       the file's text
#   run_then_show.sh tar FILE -- COMMAND...       the TAR's member list, then its index.csv
# The exit status is the command's.
set -u
mode=$1; file=$2; shift 3
"$@"
status=$?
if [ -f "$file" ]; then
  case "$mode" in
    cat) cat "$file" ;;
    tar) tar -tvf "$file"; echo "--- index.csv"; tar -xOf "$file" index.csv | head -3 | sed -n l ;;
  esac
fi
exit $status
