// Reduction planning: the input viewed as (outer, reduced, inner) after moving reduced axes together.
#pragma once
#include <vector>

#include "nn/core/shape.hpp"

namespace nn::ops {

struct ReducePlan {
  Shape in_shape, out_shape;
  std::vector<bool> reduced;  // per input axis
  int64_t out_size = 1, reduce_size = 1;
  // For each output element, the base offset; for each reduced element, an offset added to it.
  std::vector<int64_t> out_offsets, red_offsets;
  // When the reduced axes are adjacent (size-1 axes aside), the input is (outer, reduce_size, inner) in C
  // order and the output (outer, inner): the kernels then loop contiguously.
  bool blocked = false;
  int64_t outer = 1, inner = 1;
};

// axes empty with has_axes=false means all axes (nnabla's default).
ReducePlan make_reduce_plan(const Shape& in, const std::vector<int64_t>& axes, bool has_axes, bool keep_dims);
void reduce_sum(const ReducePlan& p, const float* x, float* y);
// dx[in] (+)= scale * dy[out] over the broadcast.
void broadcast_back(const ReducePlan& p, const float* dy, float* dx, bool accum, float scale);

}  // namespace nn::ops
