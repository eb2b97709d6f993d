#!/usr/bin/env bash
# conv_dataset on a dataset made by create_image_classification_dataset (in ./ds from CLASSES, 16x16 RGB
# padding, train.csv 60% / valid.csv 40%), optionally into an existing destination; then lists what is left.
#   dataset_case.sh NNCLI CLASSES [--existing-dir DIR | --existing-file FILE] -- ARGS...
#     ARGS are conv_dataset's arguments; the destination's files are printed as "left: NAME" afterwards.
set -u
nncli=$1; classes=$2; shift 2
existing=""
case "${1:-}" in
  --existing-dir) existing=$2; mkdir -p "$2"; echo keep >"$2/keep"; shift 2 ;;
  --existing-file) existing=$2; echo keep >"$2"; shift 2 ;;
esac
shift  # --
"$nncli" -q create_image_classification_dataset -i "$classes" -o ds -c 3 -w 16 -g 16 -m padding -s false \
  -f1 train.csv -r2 40 -f2 valid.csv 2>/dev/null || { echo "create_image_classification_dataset failed" >&2; exit 99; }
"$nncli" conv_dataset "$@"
status=$?
dest="${!#}"
if [ -d "$dest" ]; then (cd "$dest" && for f in *; do echo "left: $f"; done); fi
if [ -f "$dest" ]; then echo "left file: $(cat "$dest")"; fi
exit $status
