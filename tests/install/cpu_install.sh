#!/usr/bin/env bash
# The nncli component installed alone (what the nncli .deb holds) names and maps no CUDA library and runs
# version, infer and train; asking it for a GPU ends with one line saying why (exit 3): backend not installed,
# then (CUDA builds) a backend whose library is missing, then the real backend (no driver / no device here).
# Usage: cpu_install.sh BUILD_DIR SOURCE_DIR TESTDATA_DIR C_COMPILER
set -euo pipefail
build=$1 src=$2 testdata=$3 cc=$4
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
root=$work/root
cmake --build "$build" --target nncli nncli_runtime nncli_completion >"$work/build.log" || { cat "$work/build.log"; fail "build"; }
cmake --install "$build" --prefix "$root" --component nncli >"$work/install.log" || { cat "$work/install.log"; fail "install"; }
nncli=$root/bin/nncli
libdir=$(dirname "$(find "$root" -name 'libnncli.so*' -print -quit)")
[[ -z $(find "$root" -name 'libnncli-cuda*') ]] || fail "the nncli component holds the CUDA backend"
for f in "$nncli" "$libdir"/libnncli.so; do
  needed=$(readelf -d "$f" | grep NEEDED || true)
  grep -qiE "cuda|cudnn|nccl|cublas" <<<"$needed" && fail "$f names a CUDA library: $needed"
done

"$nncli" version >"$work/version.txt" || fail "version"
grep -q "cuda backend: not installed" "$work/version.txt" || fail "version: $(cat "$work/version.txt")"
cd "$work"
"$nncli" -q infer -o out "$src/sample_models/mnist_lenet/result2.nnp" "$src/sample_models/mnist_lenet/input_4_1.bin" ||
  fail "infer"
cmp -s out_0.bin "$src/sample_models/mnist_lenet/expected_output_4_1.bin" ||
  "$build/tests/cli/nncli_compare_floats" out_0.bin "$src/sample_models/mnist_lenet/expected_output_4_1.bin" ||
  fail "infer output differs"
golden=$testdata/golden/training/digits_mlp_sgd
if [[ -f $golden/net_1iter.nntxt ]]; then
  (cd "$golden" && "$nncli" -q train -c net_1iter.nntxt -o "$work/train") >"$work/train.log" 2>&1 ||
    { cat "$work/train.log"; fail "train"; }
  [[ -f $work/train/results.nnp ]] || fail "train wrote no results.nnp"
fi

# gpu_request EXPECTED: -C cudnn ends with exit 3 and one line containing EXPECTED.
gpu_request() {
  local status=0
  "$nncli" -q infer -C cudnn -o out "$src/sample_models/mnist_lenet/result2.nnp" \
    "$src/sample_models/mnist_lenet/input_4_1.bin" 2>"$work/err.txt" >/dev/null || status=$?
  [[ $status == 3 ]] || fail "-C cudnn exited $status, not 3: $(cat "$work/err.txt")"
  [[ $(wc -l <"$work/err.txt") == 1 ]] || fail "-C cudnn: not one line: $(cat "$work/err.txt")"
  grep -qF "$1" "$work/err.txt" || fail "-C cudnn: '$1' not in: $(cat "$work/err.txt")"
}
if [[ ! -f $build/lib/libnncli-cuda.so ]]; then
  gpu_request "this nncli was built without CUDA"
else
  gpu_request "the CUDA backend is not installed"
  # A backend that needs a library the machine lacks (as one built against a CUDA not installed here).
  echo 'void nncli_cuda_backend_register(void) {}' >"$work/absent.c"
  "$cc" -shared -fPIC -o "$work/libnncli_absent_dependency.so" "$work/absent.c"
  "$cc" -shared -fPIC -o "$libdir/libnncli-cuda.so" "$work/absent.c" -L"$work" -Wl,--no-as-needed \
    -lnncli_absent_dependency
  rm "$work/libnncli_absent_dependency.so"
  # Without the driver's device nodes the backend is not opened at all (no CUDA library mapped): that is said.
  if [[ -e /dev/nvidiactl || -e /dev/dxg ]]; then
    gpu_request "libnncli_absent_dependency.so: cannot open shared object file"
  else
    gpu_request "no NVIDIA driver (/dev/nvidiactl is absent)"
  fi
  rm "$libdir/libnncli-cuda.so"
  cmake --install "$build" --prefix "$root" --component cuda >>"$work/install.log" || fail "install cuda"
  "$nncli" version >"$work/version.txt" || fail "version with the backend"
  grep -q "cuda backend: installed, $libdir/libnncli-cuda.so" "$work/version.txt" || fail "$(cat "$work/version.txt")"
  if [[ ! -e /dev/nvidiactl && ! -e /dev/dxg ]]; then gpu_request "no NVIDIA driver"; fi
fi
echo "ok: nncli alone runs version, infer and train; GPU requests name why they cannot run"
