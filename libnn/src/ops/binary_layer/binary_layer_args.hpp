// The arguments of BinaryConnect/BinaryWeight Affine and Convolution, read once for the CPU kernels and the
// CUDA ones that mirror them.
#pragma once
#include <cstdint>

#include "nn/ops/attributes.hpp"

namespace nn::ops {

struct BinaryLayerArgs {
  float quantize_zero_to;  // the binary value of a zero weight
  int64_t base_axis;
  explicit BinaryLayerArgs(const Attrs& a)
      : quantize_zero_to(float(a.get_float("quantize_zero_to"))), base_axis(a.get_int("base_axis")) {}
};

}  // namespace nn::ops
