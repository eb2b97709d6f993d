#!/usr/bin/env bash
# cmake --install into a temporary prefix holds exactly the public files; examples/cpp_infer builds against
# it with find_package(nncli) and with pkg-config, and both print sample_models/mlp's expected outputs, from
# the .nnp and from the .onnx and .nnb the installed nncli converts it to.
# Usage: install_example.sh BUILD_DIR SOURCE_DIR CMAKE_GENERATOR CXX_COMPILER
set -euo pipefail
build=$1 src=$2 generator=$3 cxx=$4
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
prefix=$work/prefix mlp=$src/sample_models/mlp
fail() { echo "FAIL: $*"; exit 1; }

cmake --build "$build" --target nncli nncli_runtime nncli_completion >"$work/build.log" || { cat "$work/build.log"; fail "build"; }
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
for f in bin/nncli include/nncli/runtime.hpp lib/cmake/nncli/nncli-config.cmake \
         lib/cmake/nncli/nncli-config-version.cmake share/bash-completion/completions/nncli; do
  [[ -e $prefix/$f ]] || fail "$f not installed"
done
headers=$(cd "$prefix/include" && find . -type f | sort)
[[ $headers == ./nncli/runtime.hpp ]] || fail "unexpected public headers: $headers"
shared=0
if [[ -e $prefix/lib/libnncli.so ]]; then  # the default; BUILD_SHARED_LIBS=OFF installs libnncli.a
  shared=1
  [[ -e $prefix/lib/pkgconfig/nncli.pc ]] || fail "lib/pkgconfig/nncli.pc not installed"
  # libnncli exports the API (namespace nncli) and nothing of its dependencies; of the engine, nothing either,
  # except in a build with the CUDA backend, which binds to the engine's namespace nn when it is loaded.
  api=' nncli::'
  [[ -e $build/lib/libnncli-cuda.so ]] && api=' (nncli|nn)::|(typeinfo|typeinfo name|vtable|VTT|guard variable) for (nncli|nn)::|(non-)?virtual thunk to nn::'
  leaked=$(nm -D --defined-only -C "$prefix/lib/libnncli.so" | awk '$2 ~ /[TWVDBR]/' | grep -vE "$api" || true)
  [[ -z $leaked ]] || fail "libnncli exports more than the API: $(head -3 <<<"$leaked")"
else
  [[ -e $prefix/lib/libnncli.a ]] || fail "neither lib/libnncli.so nor lib/libnncli.a installed"
fi
"$prefix/bin/nncli" version | grep -q "Version:" || fail "installed nncli version"
grep -q "complete -o default -F _nncli nncli" "$prefix/share/bash-completion/completions/nncli" || fail "completion"

# check_output FILE: "NAME (2, 3): v1 ... v6" matches the two expected samples within 1e-5.
check_output() {
  expected=$(od -An -f -v "$mlp/expected_output_b2_0.bin" "$mlp/expected_output_b2_1.bin" | tr -s ' \n' ' ')
  grep -q '^[^ ]* (2, 3):' "$1" || fail "$(cat "$1")"
  awk -v e="$expected" 'BEGIN {n = split(e, want, " ")} {sub(/^[^:]*: /, ""); m = split($0, got, " ")}
    END {if (m != n) {print "FAIL: " m " values, expected " n; exit 1}
         for (i = 1; i <= n; i++) if ((got[i] - want[i])^2 > 1e-10) {print "FAIL: value " i ": " got[i] " != " want[i]; exit 1}}' "$1"
}

cmake -S "$src/examples/cpp_infer" -B "$work/example" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" || { cat "$work/configure.log"; fail "example configure"; }
cmake --build "$work/example" >"$work/build.log" || { cat "$work/build.log"; fail "example build"; }
"$work/example/cpp_infer" "$mlp/mlp.nnp" "$mlp/input_b2.bin" -b 2 >"$work/cmake_out.txt"
check_output "$work/cmake_out.txt"
"$prefix/bin/nncli" -q convert --onnx-dynamic-batch "$mlp/mlp.nnp" "$work/mlp.onnx"
"$prefix/bin/nncli" -q convert -b 2 "$mlp/mlp.nnp" "$work/mlp.nnb"
for model in mlp.onnx mlp.nnb; do
  "$work/example/cpp_infer" "$work/$model" "$mlp/input_b2.bin" -b 2 >"$work/$model.txt"
  check_output "$work/$model.txt"
done
# The API's error is the CLI's line, with the same status.
bad=$src/tests/cli/data/truncated.nnp
set +e
"$work/example/cpp_infer" "$bad" 2>"$work/api_err.txt"; api_status=$?
"$prefix/bin/nncli" -q infer "$bad" "$mlp/input_b2.bin" 2>"$work/cli_err.txt"; cli_status=$?
set -e
api_err=$(sed 's/^cpp_infer: error: //' "$work/api_err.txt") cli_err=$(sed 's/^nncli: error: //' "$work/cli_err.txt")
[[ -n $api_err && $api_err == "$cli_err" && $api_status == "$cli_status" ]] ||
  fail "API error '$api_err' ($api_status) differs from the CLI's '$cli_err' ($cli_status)"

if [[ $shared == 1 ]]; then
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  "$cxx" -std=c++17 "$src/examples/cpp_infer/main.cpp" -o "$work/cpp_infer_pc" $(pkg-config --cflags --libs nncli)
  "$work/cpp_infer_pc" "$mlp/mlp.nnp" "$mlp/input_b2.bin" -b 2 >"$work/pc_out.txt"
  check_output "$work/pc_out.txt"
fi
echo "ok: installed to a temporary prefix; cpp_infer (find_package, and pkg-config for libnncli.so) prints $(cat "$work/cmake_out.txt")"
