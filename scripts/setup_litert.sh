#!/usr/bin/env bash
# Installs LiteRT.js (@litertjs/core, scripts/litert/package.json pinned by its lock file) into
# ${NN_LITERT_DIR:-~/.cache/nncli/litert}. A test dependency, not a product dependency: tests/tflite runs the
# .tflite files nncli writes through it and skips when it is missing. npm's install scripts are not run.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dest="${NN_LITERT_DIR:-$HOME/.cache/nncli/litert}"
command -v npm >/dev/null || { echo "setup_litert.sh: npm not found" >&2; exit 1; }
mkdir -p "$dest"
if cmp -s "$here/litert/package-lock.json" "$dest/package-lock.json" && [ -d "$dest/node_modules/@litertjs/core" ]; then
  echo "@litertjs/core already installed in $dest"
  exit 0
fi
cp "$here/litert/package.json" "$here/litert/package-lock.json" "$dest/"
(cd "$dest" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
[ -f "$dest/node_modules/@litertjs/core/dist/index.js" ] && echo "@litertjs/core installed in $dest"
