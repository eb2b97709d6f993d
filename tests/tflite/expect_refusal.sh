# Sourced by the tflite check scripts. expect_refusal WHAT TEXT COMMAND...: runs COMMAND and wants exit 1 and one
# line on stderr containing TEXT (err.txt in the current folder holds it); prints OK or FAIL, and a FAIL sets
# status=1.
expect_refusal() {
  local what=$1 text=$2
  shift 2
  "$@" >/dev/null 2>err.txt
  local rc=$?
  if [ $rc -ne 1 ] || ! grep -qF -- "$text" err.txt || [ "$(wc -l <err.txt)" -ne 1 ]; then
    echo "FAIL: $what: want exit 1 and one line with '$text', got exit $rc: $(cat err.txt)"
    status=1
  else
    echo "OK: $what: $(cat err.txt)"
  fi
}
