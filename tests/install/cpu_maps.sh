#!/usr/bin/env bash
# A CPU run maps no CUDA library: the dynamic loader's own list of what it maps (LD_DEBUG=files: the
# executable's needs and every dlopen) for a LeNet infer holds no CUDA, cuDNN, cuBLAS or NCCL file. In a
# build with the backend, `nncli version` (which probes the GPU) shows the backend and libcudart in that
# same list where the driver's device nodes exist, so the check sees them when they are there; without the
# driver, version maps none of them either.
# Usage: cpu_maps.sh NNCLI SOURCE_DIR
set -euo pipefail
nncli=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cuda_files='file=[^ ]*(cuda|cudnn|cublas|nccl)'
cd "$work"
LD_DEBUG=files "$nncli" -q infer -o out "$src/sample_models/mnist_lenet/result2.nnp" \
  "$src/sample_models/mnist_lenet/input_4_1.bin" 2>"$work/ld.txt" >/dev/null || fail "infer: $(tail -3 "$work/ld.txt")"
grep -q "file=" "$work/ld.txt" || fail "LD_DEBUG=files printed nothing"
if grep -E "$cuda_files" "$work/ld.txt"; then fail "a CPU infer mapped the CUDA libraries above"; fi
LD_DEBUG=files "$nncli" version 2>"$work/ld_version.txt" >"$work/version.txt" || fail "version"
if ! [[ -e /dev/nvidiactl || -e /dev/dxg ]]; then
  if grep -E "$cuda_files" "$work/ld_version.txt"; then fail "version mapped the CUDA libraries above (no driver)"; fi
elif grep -q "cuda backend: installed" "$work/version.txt"; then
  grep -qE 'file=[^ ]*libnncli-cuda\.so' "$work/ld_version.txt" || fail "version: the backend not in LD_DEBUG's list"
  grep -qE 'file=[^ ]*libcudart\.so' "$work/ld_version.txt" || fail "version: libcudart not in LD_DEBUG's list"
fi
echo "ok: a CPU infer maps $(grep -c 'file=' "$work/ld.txt") files, none of CUDA"
