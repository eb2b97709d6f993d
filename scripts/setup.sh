#!/usr/bin/env bash
# Installs the Debian packages nncli needs to build, test and run its sample job.
set -euo pipefail
PKGS=(
  build-essential cmake ninja-build ccache pkg-config libomp-dev
  libcli11-dev libprotobuf-dev protobuf-compiler libhdf5-dev libyaml-cpp-dev
  libonnx-dev nlohmann-json3-dev libzip-dev libopenblas-openmp-dev libdnnl-dev
  libgtest-dev libgraphviz-dev libstb-dev libpng-dev libjpeg-dev libarchive-dev
  libplplot-dev plplot-driver-cairo libcurl4-openssl-dev libopenmpi-dev openmpi-bin python3
  libonnx-testdata dataset-fashion-mnist libflatbuffers-dev flatbuffers-compiler
  python3-pyarmnn libarmnn-cpuref-backend22
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
"$(dirname "$0")/setup_ort.sh" || echo "onnxruntime-node unavailable: ORT tests will skip"
"$(dirname "$0")/setup_litert.sh" || echo "LiteRT.js unavailable: its TFLite tests will skip"
