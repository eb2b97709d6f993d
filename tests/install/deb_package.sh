#!/usr/bin/env bash
# cpack -G DEB builds a package that declares its Debian dependencies; dpkg -x into a scratch root gives
# an nncli that runs (version, and infer of sample_models/mlp) from there. From a CUDA build a second package,
# nncli-cuda, holds the backend (nncli has none): extracted beside nncli, `nncli version` finds it.
# Usage: deb_package.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null || { echo "SKIP: no dpkg-deb/dpkg-shlibdeps"; exit 77; }

targets=(nncli nncli_runtime nncli_completion)
[[ -f $build/lib/libnncli-cuda.so ]] && targets+=(nncli_cuda)
cmake --build "$build" --target "${targets[@]}" >"$work/build.log" || { cat "$work/build.log"; fail "build"; }
(cd "$build" && cpack -G DEB -B "$work/pkg") >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$work"/pkg/nncli_*.deb)
depends=$(dpkg-deb -f "$deb" Depends)
for pkg in libc6 libstdc++6 libgomp1 libprotobuf; do
  [[ $depends == *"$pkg"* ]] || fail "Depends lacks $pkg: $depends"
done
files=$(dpkg-deb -c "$deb")
for f in ./usr/bin/nncli ./usr/include/nncli/runtime.hpp ./usr/share/bash-completion/completions/nncli \
         ./usr/lib/cmake/nncli/nncli-config.cmake; do
  grep -q " $f\$" <<<"$files" || fail "$f not in the package"
done
grep -qE "/libnncli\.(so|a)( |$)" <<<"$files" || fail "libnncli not in the package"
grep -q "libnncli-cuda" <<<"$files" && fail "the nncli package holds the CUDA backend"

dpkg -x "$deb" "$work/root"
"$work/root/usr/bin/nncli" version >"$work/version.txt" || fail "nncli version from the package"
grep -q "Version:" "$work/version.txt" || fail "$(cat "$work/version.txt")"
(cd "$work" && "$work/root/usr/bin/nncli" -q infer -b 2 --format json "$src/sample_models/mlp/mlp.nnp" \
   "$src/sample_models/mlp/input_b2.bin") | grep -q '"shape":\[2,3\]' || fail "infer from the package"
if [[ -f $build/lib/libnncli-cuda.so ]]; then
  cuda_deb=$(ls "$work"/pkg/nncli-cuda_*.deb) || fail "no nncli-cuda package from a CUDA build"
  [[ $(dpkg-deb -f "$cuda_deb" Depends) == *"nncli (= "* ]] || fail "nncli-cuda does not depend on nncli"
  dpkg -x "$cuda_deb" "$work/root"
  "$work/root/usr/bin/nncli" version | grep -q "cuda backend: installed, $work/root/usr/lib/libnncli-cuda.so" ||
    fail "nncli does not find the backend of nncli-cuda: $("$work/root/usr/bin/nncli" version)"
fi
echo "ok: $(basename "$deb"), Depends: $depends"
