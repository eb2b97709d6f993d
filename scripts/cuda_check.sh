#!/usr/bin/env bash
# Compiles CUDA backend sources (libnn/src/cuda/**/*.cpp|.cu, tests/gpu/*.cpp) one by one with the flags of a
# configured CUDA build directory, without ninja: a quick check that works beside other builds.
# Usage: scripts/cuda_check.sh [-B build-cuda] FILE...
set -euo pipefail
build=build-cuda
if [[ "${1:-}" == "-B" ]]; then build=$2; shift 2; fi
root=$(cd "$(dirname "$0")/.." && pwd)
db="$root/$build/compile_commands.json"
[[ -f "$db" ]] || { echo "cuda_check: $db not found (configure $build with -DNN_WITH_CUDA=ON)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for f in "$@"; do
  abs=$(realpath "$f")
  case "$abs" in
    *.cu) pattern='/src/cuda/kernels/' ;;
    */tests/gpu/*) pattern='/tests/gpu/' ;;
    *) pattern='/src/cuda/' ;;
  esac
  # The command of a sibling file already in the database, with this file and a scratch output put in.
  cmd=$(python3 - "$db" "$pattern" "$abs" "$out/x.o" <<'PY'
import json, sys, shlex
db, pattern, src, obj = sys.argv[1:]
for c in json.load(open(db)):
    if pattern in c['file'] and (c['file'].endswith('.cu') == src.endswith('.cu')):
        args = shlex.split(c['command'])
        args = [src if a == c['file'] else a for a in args]
        i = args.index('-o'); args[i + 1] = obj
        print(shlex.join(args)); break
PY
)
  [[ -n "$cmd" ]] || { echo "cuda_check: no compile command like $f in $db" >&2; status=2; continue; }
  if (cd "$root/$build" && eval "$cmd"); then echo "ok   $f"; else echo "FAIL $f"; status=1; fi
done
exit $status
