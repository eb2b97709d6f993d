// A shape given as a tensor (ONNX's Reshape, Expand and ConstantOfShape inputs computed from the data).
#pragma once
#include <cmath>
#include <string>

#include "nn/core/error.hpp"
#include "nn/graph/variable.hpp"

namespace nn::ops {

// Most elements an array whose shape a tensor gives may hold (2^31 floats, 8 GiB): refused before allocating.
constexpr int64_t kMaxShapedElements = int64_t(1) << 31;

// The integers a 1-D tensor holds. `checked` (when it runs): each must be at least `lowest` (0, or -1 where -1
// means "infer"). At setup the values may be stand-ins (a sub-graph built before it is given its inputs):
// out-of-range ones then become 0, so setup never fails on them.
inline Shape shape_values(Variable* v, const std::string& what, bool checked, int64_t lowest = 0) {
  NN_CHECK(v->ndim() <= 1) << what << ": the shape must be 1-D, got " << to_string(v->shape());
  const float* p = v->data()->get<float>();
  Shape s;
  for (int64_t i = 0; i < v->size(); ++i) {
    const double d = p[i];
    const bool ok = std::isfinite(d) && d >= double(lowest) && d <= double(kMaxShapedElements);
    NN_CHECK(ok || !checked) << what << ": dim " << i << " is " << d;
    s.push_back(ok ? int64_t(d) : 0);
  }
  return s;
}

// Throws naming `what` when `s` holds more than kMaxShapedElements elements.
inline void check_shaped_size(const Shape& s, const std::string& what) {
  checked_shape_size(s, kMaxShapedElements, what);
}

}  // namespace nn::ops
