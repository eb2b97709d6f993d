#!/usr/bin/env bash
# Installs onnxruntime-node (scripts/ort/package.json, pinned by its lock file) into ${NN_ORT_DIR:-~/.cache/nncli/ort}.
# A test dependency, not a product dependency: tests/onnx_ort runs exported ONNX models through ONNX Runtime
# with it and skips when it is missing. npm's install scripts are not run (the CPU library ships in the package).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dest="${NN_ORT_DIR:-$HOME/.cache/nncli/ort}"
command -v npm >/dev/null || { echo "setup_ort.sh: npm not found" >&2; exit 1; }
mkdir -p "$dest"
if cmp -s "$here/ort/package-lock.json" "$dest/package-lock.json" && [ -d "$dest/node_modules/onnxruntime-node" ]; then
  echo "onnxruntime-node already installed in $dest"
  exit 0
fi
cp "$here/ort/package.json" "$here/ort/package-lock.json" "$dest/"
(cd "$dest" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
node -e "require('$dest/node_modules/onnxruntime-node')" && echo "onnxruntime-node installed in $dest"
