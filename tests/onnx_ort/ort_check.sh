#!/usr/bin/env bash
# One ONNX Runtime cross-check: export MODEL... to ONNX with nncli, make deterministic inputs of the ONNX input
# shapes, run nncli infer (on the source model) and ONNX Runtime (on the export), and compare every output.
#
#   ort_check.sh NNCLI ORT_RUN_JS [--atol X] [--rtol X] [--batch N] [--dynamic] [--input F.npy]... -- MODEL...
# (--dynamic: export with a symbolic batch and run both at --batch N; --input: inputs instead of random ones;
#  --ort-only: only ONNX Runtime runs the export, for networks nncli infer refuses;
#  --refused TEXT: the ONNX export must fail with exit 1 and a message containing TEXT;
#  --onnx-source: MODEL is an ONNX file that ONNX Runtime runs as given and nncli infer imports, checking the
#  importer rather than the exporter;
#  --nnb: MODEL is an .onnx file that ONNX Runtime runs as given, and nncli infer runs the NNB nncli converts
#  it to, so that nncli's NNB writer is held to the ONNX model's own outputs)
# onnxruntime-node is a test dependency, not a product dependency: it comes from scripts/setup_ort.sh, which
# installs it into ${NN_ORT_DIR:-$HOME/.cache/nncli/ort}; without node or the package this test skips (77).
# A model with functions the exporter lacks (convert exit 3) also skips, naming them.
set -u
nncli=$1; ort_js=$2; shift 2
atol=1e-4; rtol=1e-4; batch=1; dynamic=(); given_inputs=(); ort_only=0; refused=""; onnx_source=0; nnb=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    --atol) atol=$2; shift 2 ;;
    --rtol) rtol=$2; shift 2 ;;
    --batch) batch=$2; shift 2 ;;
    --dynamic) dynamic=(--onnx-dynamic-batch); shift ;;
    --input) given_inputs+=("$2"); shift 2 ;;
    --ort-only) ort_only=1; shift ;;
    --refused) refused=$2; shift 2 ;;
    --onnx-source) onnx_source=1; shift ;;
    --nnb) nnb=1; shift ;;
    *) echo "ort_check.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
shift
ort_dir="${NN_ORT_DIR:-$HOME/.cache/nncli/ort}"
if ! command -v node >/dev/null; then
  echo "SKIP: node is not installed (needed for the ONNX Runtime cross-check)"; exit 77
fi
if [ ! -d "$ort_dir/node_modules/onnxruntime-node" ]; then
  echo "SKIP: onnxruntime-node not found in $ort_dir (run scripts/setup_ort.sh)"; exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export NN_ORT_DIR="$ort_dir"

if [ $onnx_source = 1 ]; then
  cp "$1" "$work/model.onnx" && cp "$1" "$work/source.onnx" || exit 1
  source_model="$work/source.onnx"
else
  source_model="$work/source.nnp"
  # The source first becomes one .nnp, so that text models get their generated parameters once for both runs.
  "$nncli" -q convert "$@" "$work/source.nnp" 2>"$work/convert.err" || {
    echo "FAIL: nncli convert to NNP failed: $(cat "$work/convert.err")"; exit 1; }
  if [ $nnb = 1 ]; then
    cp "$1" "$work/model.onnx"
    source_model="$work/model.nnb"
    "$nncli" -q convert "$work/source.nnp" "$work/model.nnb" 2>"$work/convert.err"
  else
    "$nncli" -q convert -b 1 "${dynamic[@]}" "$work/source.nnp" "$work/model.onnx" 2>"$work/convert.err"
  fi
  rc=$?
  if [ -n "$refused" ]; then
    if [ $rc -eq 1 ] && grep -qF -- "$refused" "$work/convert.err"; then
      echo "OK: refused: $(cat "$work/convert.err")"; exit 0
    fi
    echo "FAIL: expected convert to refuse with '$refused', got exit $rc: $(cat "$work/convert.err")"; exit 1
  elif [ $rc -eq 3 ]; then
    echo "SKIP: not exportable: $(cat "$work/convert.err")"; exit 77
  elif [ $rc -ne 0 ]; then
    echo "FAIL: nncli convert exited $rc: $(cat "$work/convert.err")"; exit 1
  fi
fi
if [ ${#given_inputs[@]} -gt 0 ]; then
  inputs=("${given_inputs[@]}")
else
  mapfile -t inputs < <(node "$ort_js" inputs "$work/model.onnx" "$work/in" 7 "$batch") || exit 1
fi
node "$ort_js" run "$work/model.onnx" "$work/ort" "${inputs[@]}" || { echo "FAIL: ONNX Runtime failed"; exit 1; }
if [ $ort_only = 1 ]; then
  ls "$work"/ort_*.npy >/dev/null 2>&1 || { echo "FAIL: ONNX Runtime produced no output"; exit 1; }
  echo "OK: ONNX Runtime ran the export (nncli infer not compared)"; exit 0
fi
"$nncli" -q infer -b "$batch" --format npy -o "$work/nn" "$source_model" "${inputs[@]}" || {
  echo "FAIL: nncli infer failed"; exit 1; }
status=0 outputs=0
for ort_out in "$work"/ort_*.npy; do
  nn_out="$work/nn_${ort_out##*/ort_}"
  outputs=$((outputs + 1))
  if [ ! -f "$nn_out" ]; then
    echo "FAIL: nncli infer wrote no ${nn_out##*/}"; status=1; continue
  fi
  node "$ort_js" compare "$nn_out" "$ort_out" "$atol" "$rtol" || status=1
done
[ $outputs -gt 0 ] || { echo "FAIL: ONNX Runtime produced no output"; status=1; }
exit $status
