#!/usr/bin/env bash
# Runs NNCLI infer on a model path of 120,000 characters (near the kernel's limit for one argument), so the
# test can check that the error line stays short.
#   long_name.sh NNCLI
name="$(head -c 120000 /dev/zero | tr '\0' a).nnp"
"$1" -q infer -o out "$name" in.bin 2> err.txt
status=$?
[ "$(wc -c < err.txt)" -lt 1000 ] && echo "short error line" || echo "long error line"
cat err.txt >&2
exit $status
