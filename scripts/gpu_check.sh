#!/usr/bin/env bash
# The GPU check of a lent device machine, as one command: the CUDA kernels against cpu:float (per-op tester and
# GPU tests), training on cudnn, infer/compare_with_cpu end to end, then speed beside PyTorch. Logs go to
# $OUT (or ./gpu-check). Build the bundle first here: scripts/gpu_bundle.sh build-ci; carry .gpu.
# Usage (on the device machine): scripts/gpu_check.sh [bench-seconds]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check}
mkdir -p "$out"
secs=${1:-1}
run=scripts/gpu_device_run.sh
fails=0
step() {  # step NAME COMMAND...: runs one step under the bundle, its log in $out/NAME.log, a summary line here
  local name=$1
  shift
  local t0=$SECONDS
  if "$run" "$@" >"$out/$name.log" 2>&1; then
    echo "PASS $name ($((SECONDS - t0)) s)"
  else
    echo "FAIL $name ($((SECONDS - t0)) s): tail of $name.log"
    tail -15 "$out/$name.log"
    fails=$((fails + 1))
  fi
}
nvidia-smi -L || true
step version nncli version
# The per-op tester compares every registered float backend with cpu:float; the coverage cases read source
# files of this machine's checkout and are checked where they were built.
step ops nn_ops_tests --gtest_brief=1 --gtest_filter=-CudaCoverage.*:OpCoverage.*
step gpu_tests nn_gpu_tests --gtest_brief=1
step train_gpu test_train_gpu --gtest_brief=1
m=sample_models
step infer_lenet_cudnn sh -c "cd '$out' && nncli -q infer -C cudnn -o lenet '$PWD/$m/mnist_lenet/result2.nnp' \
  '$PWD/$m/mnist_lenet/input_4_1.bin' && python3 -c 'import numpy as n,sys; a,b=(n.fromfile(f,n.float32) for f in \
sys.argv[1:]); print(abs(a-b).max()); sys.exit(not n.allclose(a,b,1e-3,1e-4))' lenet_0.bin \
  '$PWD/$m/mnist_lenet/expected_output_4_1.bin'"
step compare_lenet nncli -q compare_with_cpu -C cudnn -c $m/mnist_lenet/result2.nnp -c2 $m/mnist_lenet/result2.nnp \
  -o "$out/cmp_lenet"
step compare_mlp_half nncli -q compare_with_cpu -C cudnn:half --atol 2e-2 --rtol 2e-2 -c $m/mlp/mlp.nnp \
  -c2 $m/mlp/mlp.nnp -o "$out/cmp_mlp"
step compare_digits_training sh -c "nncli -q compare_with_cpu -C cudnn -c \"\$NN_TESTDATA_DIR/golden/training/\
digits_mlp_sgd/net.nntxt\" -c2 \"\$NN_TESTDATA_DIR/golden/training/digits_mlp_sgd/net.nntxt\" -o '$out/cmp_digits'"
step bench_cudnn bench_gpu cudnn "$secs"
step bench_cudnn_half bench_gpu cudnn:half "$secs"
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
  for mode in float half; do
    (cd scripts && python3 bench_gpu_torch.py "$mode" "$secs") >"$out/torch_$mode.log" 2>&1 &&
      echo "PASS torch_$mode" || echo "FAIL torch_$mode"
  done
fi
for f in "$out"/bench_cudnn*.log "$out"/torch_*.log; do
  [ -f "$f" ] && { echo "== $(basename "$f")"; cat "$f"; }
done
echo "gpu_check: $fails step(s) failed"
exit $((fails > 0))
