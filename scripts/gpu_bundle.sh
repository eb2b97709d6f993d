#!/usr/bin/env bash
# Packs the CUDA build's GPU programs (nn_ops_tests, nn_gpu_tests, bench_gpu, nncli, test_train_gpu), the testdata they
# read, every shared library they load except the NVIDIA ones (CUDA runtime, cuDNN, cuBLAS, NCCL, driver)
# and this machine's dynamic loader into .gpu/bundle.tar.xz: a machine with a GPU but without nncli's
# Debian packages (the lent device machines) runs them through scripts/gpu_device_run.sh.
# Usage: scripts/gpu_bundle.sh [build-dir]   (default build-cuda, configured with -DNN_WITH_CUDA=ON)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-cuda}
ninja -C "$build" nn_ops_tests nn_gpu_tests bench_gpu nncli nncli_cuda test_train_gpu >/dev/null
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" .gpu
bins=("$build/tests/ops/nn_ops_tests" "$build/tests/gpu/nn_gpu_tests" "$build/bench/bench_gpu" "$build/apps/nncli/nncli"
      "$build/tests/train/test_train_gpu")
cp "${bins[@]}" "$stage/bin/"
# The CUDA backend, where the programs' loader looks for it (bin/../lib).
backend=$build/lib/libnncli-cuda.so
cp "$backend" "$stage/lib/"
# OpenBLAS and HDF5 are opened with dlopen on first use: bundled under their sonames, which the programs try
# after their build path (that path may hold another, incompatible copy on the device machine).
cache() { sed -n "s/^$1:FILEPATH=//p" "$build/CMakeCache.txt"; }
lazy=("$(dirname "$(cache OPENBLAS_LIB)")/libopenblas.so.0" "$(readlink -f "$(cache HDF5_C_LIBRARY_hdf5)")")
for lib in "${lazy[@]}"; do
  cp -L "$lib" "$stage/lib/$(objdump -p "$lib" | awk '/SONAME/ {print $2}')"
done
ldd "${bins[@]}" "$backend" "${lazy[@]}" | awk '/=>/ {print $3}' | sort -u |
  grep -Ev '/lib(cuda|cudart|cudnn|cublas|cublasLt|nccl|nvidia-ml)[._]' |
  while read -r lib; do cp -L "$lib" "$stage/lib/"; done
cp -L /lib64/ld-linux-x86-64.so.2 "$stage/lib/"
# The testdata test_train_gpu reads (../shared does not travel to the device machine).
mkdir -p "$stage/testdata/golden/training"
cp -r ../shared/testdata/golden/training/digits_mlp_sgd "$stage/testdata/golden/training/"
tar -C "$stage" -cJf .gpu/bundle.tar.xz .
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qx '/.gpu/' "$exclude" 2>/dev/null || echo '/.gpu/' >> "$exclude"
echo "wrote .gpu/bundle.tar.xz ($(du -h .gpu/bundle.tar.xz | cut -f1)); carry .gpu and run scripts/gpu_device_run.sh there"
