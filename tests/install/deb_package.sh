#!/usr/bin/env bash
# cpack -G DEB builds a package that declares its Debian dependencies; dpkg -x into a scratch root gives
# an nncli that runs (version, and infer of sample_models/mlp) from there.
# Usage: deb_package.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null || { echo "SKIP: no dpkg-deb/dpkg-shlibdeps"; exit 77; }

cmake --build "$build" --target nncli nncli_runtime nncli_completion >"$work/build.log" || { cat "$work/build.log"; fail "build"; }
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

dpkg -x "$deb" "$work/root"
"$work/root/usr/bin/nncli" version >"$work/version.txt" || fail "nncli version from the package"
grep -q "Version:" "$work/version.txt" || fail "$(cat "$work/version.txt")"
(cd "$work" && "$work/root/usr/bin/nncli" -q infer -b 2 --format json "$src/sample_models/mlp/mlp.nnp" \
   "$src/sample_models/mlp/input_b2.bin") | grep -q '"shape":\[2,3\]' || fail "infer from the package"
echo "ok: $(basename "$deb"), Depends: $depends"
