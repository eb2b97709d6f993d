#!/usr/bin/env bash
# One end-to-end CLI test case: runs a command in a fresh directory and checks its exit status, stdout/stderr
# fragments, files it must (not) leave, and float32 outputs against golden files.
#
#   cli_case.sh [checks...] -- COMMAND [ARGS...]
#     --exit N              expected exit status (default 0)
#     --out TEXT            stdout must contain TEXT        --no-out TEXT   stdout must not contain TEXT
#     --err TEXT            stderr must contain TEXT        --no-err TEXT   stderr must not contain TEXT
#     --err-lines N         stderr must have exactly N lines
#     --file PATH           PATH (relative to the work dir) must exist after the run
#     --no-file GLOB        nothing may match GLOB after the run (checks also that no '*.tmp.*' is left)
#     --same-out FILE       stdout, minus lines matching --ignore, must equal FILE
#     --ignore REGEX        lines to drop before --same-out
#     --compare OUT GOLDEN  OUT (float32 raw) must match GOLDEN within |a-b| <= ATOL + RTOL*|b|
#     --rtol X --atol X     tolerances for --compare (default 1e-4 and 1e-5)
#     --skip-unsupported    exit 77 (CTest "skipped") when the command fails with status 3 (missing functions)
#   The environment variable NNCLI_COMPARE names the float comparison tool.
set -u
expect_exit=0
outs=(); no_outs=(); errs=(); no_errs=(); files=(); no_files=(); compares=()
err_lines=""; same_out=""; ignore='^$^'; rtol=1e-4; atol=1e-5; skip_unsupported=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    --exit) expect_exit=$2; shift 2 ;;
    --out) outs+=("$2"); shift 2 ;;
    --no-out) no_outs+=("$2"); shift 2 ;;
    --err) errs+=("$2"); shift 2 ;;
    --no-err) no_errs+=("$2"); shift 2 ;;
    --err-lines) err_lines=$2; shift 2 ;;
    --file) files+=("$2"); shift 2 ;;
    --no-file) no_files+=("$2"); shift 2 ;;
    --same-out) same_out=$2; shift 2 ;;
    --ignore) ignore=$2; shift 2 ;;
    --compare) compares+=("$2" "$3"); shift 3 ;;
    --rtol) rtol=$2; shift 2 ;;
    --atol) atol=$2; shift 2 ;;
    --skip-unsupported) skip_unsupported=1; shift ;;
    *) echo "cli_case.sh: unknown check '$1'" >&2; exit 2 ;;
  esac
done
[ "${1:-}" = "--" ] || { echo "cli_case.sh: missing '-- COMMAND'" >&2; exit 2; }
shift

work=$(mktemp -d "${TMPDIR:-/tmp}/nncli_case.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
"$@" >stdout.txt 2>stderr.txt
status=$?

fail=0
problem() { echo "FAIL: $*" >&2; fail=1; }
show() { echo "--- command: $*" >&2; echo "--- stdout:" >&2; head -c 4000 stdout.txt >&2; echo "--- stderr:" >&2; head -c 4000 stderr.txt >&2; }

if [ "$skip_unsupported" = 1 ] && [ "$status" = 3 ] && [ "$expect_exit" != 3 ]; then
  echo "SKIPPED: the command reports missing functions (exit 3):" >&2
  cat stderr.txt >&2
  exit 77
fi
[ "$status" = "$expect_exit" ] || problem "exit status $status, expected $expect_exit"
for t in "${outs[@]+"${outs[@]}"}"; do grep -qF -- "$t" stdout.txt || problem "stdout lacks: $t"; done
for t in "${no_outs[@]+"${no_outs[@]}"}"; do grep -qF -- "$t" stdout.txt && problem "stdout has: $t"; done
for t in "${errs[@]+"${errs[@]}"}"; do grep -qF -- "$t" stderr.txt || problem "stderr lacks: $t"; done
for t in "${no_errs[@]+"${no_errs[@]}"}"; do grep -qF -- "$t" stderr.txt && problem "stderr has: $t"; done
if [ -n "$err_lines" ]; then
  n=$(wc -l <stderr.txt)
  [ "$n" = "$err_lines" ] || problem "stderr has $n lines, expected $err_lines"
fi
for f in "${files[@]+"${files[@]}"}"; do [ -e "$f" ] || problem "missing output file $f"; done
for g in "${no_files[@]+"${no_files[@]}"}"; do
  # shellcheck disable=SC2086
  for f in $g; do [ -e "$f" ] && problem "unexpected file $f"; done
done
leftovers=$(find . -name '*.tmp.*' | head -5)
[ -z "$leftovers" ] || problem "temporary files left behind: $leftovers"
if [ -n "$same_out" ]; then
  grep -vE -- "$ignore" stdout.txt >stdout.filtered || true
  grep -vE -- "$ignore" "$same_out" >expected.filtered || true
  diff expected.filtered stdout.filtered >diff.txt || { problem "stdout differs from $same_out"; head -40 diff.txt >&2; }
fi
i=0
while [ $i -lt ${#compares[@]} ]; do
  "${NNCLI_COMPARE:?NNCLI_COMPARE is not set}" --rtol "$rtol" --atol "$atol" "${compares[$i]}" "${compares[$((i + 1))]}" >&2 ||
    problem "${compares[$i]} does not match ${compares[$((i + 1))]}"
  i=$((i + 2))
done
if [ $fail != 0 ]; then show "$@"; exit 1; fi
exit 0
