// An array viewed as (outer, axis, inner) around one axis, for softmax-like ops and their losses.
#pragma once
#include <cstdint>

#include "nn/core/shape.hpp"

namespace nn::ops {

struct AxisSplit {
  int64_t outer = 1, size = 1, inner = 1;
};

inline AxisSplit split_at_axis(const Shape& s, int axis) {
  return {shape_size(s, 0, size_t(axis)), s[size_t(axis)], shape_size(s, size_t(axis) + 1, s.size())};
}

}  // namespace nn::ops
