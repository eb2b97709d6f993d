// TopNError's argument, read once for the CPU kernel and the CUDA one that mirrors it (its axis is
// axis_argument's, ops/activation/axis_split.hpp).
#pragma once
#include <cstdint>

#include "nn/ops/attributes.hpp"

namespace nn::ops {

// A label is an error when its score is not among the n largest.
inline int64_t top_n(const Attrs& a) { return a.get_int("n"); }

}  // namespace nn::ops
