// PReLU's argument and geometry, read once for the CPU kernel and the CUDA one that mirrors it.
#pragma once
#include <cstdint>

#include "nn/core/error.hpp"
#include "nn/core/shape.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::ops {

// One shared slope (channels 1) or one per channel of axis base_axis: element i of x uses slope
// (i / inner) % channels. The slope's shape ws is checked against x's.
struct PReluPlan {
  int64_t channels = 1, inner = 1;
};
inline PReluPlan plan_prelu(const Attrs& a, const Shape& xs, const Shape& ws) {
  const int64_t base_axis = a.get_int("base_axis");
  NN_CHECK(base_axis >= 0 && base_axis < int64_t(xs.size()))
      << "PReLU: base_axis " << base_axis << " is out of range for input shape " << to_string(xs);
  const bool shared = shape_size(ws) == 1;
  NN_CHECK(shared || (ws.size() == 1 && ws[0] == xs[size_t(base_axis)]))
      << "PReLU: slope shape " << to_string(ws) << " must be (1,) or (" << xs[size_t(base_axis)]
      << ",) for input shape " << to_string(xs) << " and base_axis " << base_axis;
  return {shared ? 1 : ws[0], shape_size(xs, size_t(base_axis) + 1, xs.size())};
}

}  // namespace nn::ops
