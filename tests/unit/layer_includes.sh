#!/usr/bin/env bash
# Fails when a libnn folder includes a header of a layer above it (docs/architecture.md): core knows no
# other part of libnn (the CUDA backend registers itself: register_device, register_gpu_backend), graph,
# ops and ir know no training (initializers live in ir; SyncBatchNormalization's all-reduce is registered
# with nn::ops::set_process_all_reduce_sum), and libnn knows none of formats, runtime or the app.
#   layer_includes.sh REPOSITORY_ROOT
set -euo pipefail
root=${1:?usage: layer_includes.sh REPOSITORY_ROOT}
status=0

# forbid FOLDER... -- PREFIX...: no #include of "PREFIX/..." or "nn/PREFIX/..." in the folders' files.
forbid() {
  local dirs=() prefixes
  while [[ $1 != -- ]]; do dirs+=("$root/$1"); shift; done
  shift
  prefixes=$(IFS='|'; echo "$*")
  local hits
  hits=$(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<](nn/)?($prefixes)/" "${dirs[@]}" || true)
  if [[ -n $hits ]]; then
    echo "forbidden includes (${*}) in ${dirs[*]#"$root/"}:"
    echo "${hits//"$root/"/}"
    status=1
  fi
}

forbid libnn/src/core libnn/include/nn/core -- cuda ops graph ir train solvers
forbid libnn/src/graph libnn/include/nn/graph libnn/src/ops libnn/include/nn/ops libnn/src/ir libnn/include/nn/ir \
  -- train solvers
forbid libnn -- formats runtime nncli apps google

[[ $status == 0 ]] && echo "libnn's layers include only what is below them"
exit $status
