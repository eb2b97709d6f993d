#!/usr/bin/env bash
# On a GPU machine (no build there): unpacks .gpu/bundle.tar.xz (scripts/gpu_bundle.sh) and runs the given
# command with the bundle's programs first on PATH, loaded by the bundle's own dynamic loader and libraries,
# and the NVIDIA libraries of that machine (driver, and the CUDA runtime, cuDNN, cuBLAS, NCCL that its
# PyTorch installation carries, or /usr/local/cuda). Examples:
#   scripts/gpu_device_run.sh nn_gpu_tests
#   scripts/gpu_device_run.sh bench_gpu cudnn:half 3
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${NN_GPU_BUNDLE_DIR:-/tmp/nncli_gpu}
if [ ! -x "$dir/bin/nncli" ]; then
  mkdir -p "$dir"
  tar -C "$dir" -xJf "$root/.gpu/bundle.tar.xz"
fi
paths=("$dir/lib")
for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu /usr/local/cuda/lib64; do
  [ -d "$d" ] && paths+=("$d")
done
site=$(python3 -c 'import nvidia, os; print(os.path.dirname(nvidia.__path__[0]))' 2>/dev/null || true)
for pkg in cuda_runtime cudnn cublas nccl cu13; do
  for d in "$site/nvidia/$pkg/lib" "$site/nvidia/$pkg/lib64"; do [ -d "$d" ] && paths+=("$d"); done
done
libpath=$(IFS=:; echo "${paths[*]}")
# Each bundled program runs through the bundled loader (its glibc may be newer than the machine's).
wrappers="$dir/wrappers"
mkdir -p "$wrappers"
for b in "$dir"/bin/*; do
  printf '#!/bin/sh\nexec "%s" --library-path "%s" "%s" "$@"\n' "$dir/lib/ld-linux-x86-64.so.2" "$libpath" "$b" \
    > "$wrappers/$(basename "$b")"
  chmod +x "$wrappers/$(basename "$b")"
done
export NNCLI_PATH="$wrappers/nncli" NN_TESTDATA_DIR="$dir/testdata"
PATH="$wrappers:$PATH" exec "$@"
