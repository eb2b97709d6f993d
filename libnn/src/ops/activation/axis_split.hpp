// An array viewed as (outer, axis, inner) around one axis, and that axis's argument, for softmax-like ops,
// their losses and the concatenated activations, on the CPU and on CUDA.
#pragma once
#include <cstdint>

#include "nn/core/shape.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::ops {

struct AxisSplit {
  int64_t outer = 1, size = 1, inner = 1;
};

inline AxisSplit split_at_axis(const Shape& s, int axis) {
  return {shape_size(s, 0, size_t(axis)), s[size_t(axis)], shape_size(s, size_t(axis) + 1, s.size())};
}

// The op's `axis` argument over x of shape s, normalized (`what` names it in errors); when the schema gives it
// no value (Softmax, the label ops: "the last axis"), the last axis.
inline int axis_argument(const Attrs& a, const Shape& s, const char* what = "axis") {
  return normalize_axis(a.get_int("axis", int64_t(s.size()) - 1), s.size(), what);
}

}  // namespace nn::ops
