// Reduction planning: the input viewed as (outer, reduced, inner) after moving reduced axes together.
#pragma once
#include <vector>

#include "nn/core/shape.hpp"
#include "nn/ops/attributes.hpp"

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
// The plan of a reduction op (Sum, Mean, Prod, Max, Min ...) from its `axes` (absent: all) and `keep_dims`,
// for the CPU kernels and the CUDA ones that mirror them.
inline ReducePlan make_reduce_plan(const Shape& in, const Attrs& a) {
  return make_reduce_plan(in, a.get_ints("axes", {}), a.has("axes"), a.get_bool("keep_dims"));
}
// Max and Min: with_index adds the index output, only_index returns just the index.
struct ArgExtremeArgs {
  bool with_index, only_index;
  explicit ArgExtremeArgs(const Attrs& a)
      : with_index(a.get_bool("with_index")), only_index(a.get_bool("only_index")) {}
};
void reduce_sum(const ReducePlan& p, const float* x, float* y);
// dx[in] (+)= scale * dy[out] over the broadcast.
void broadcast_back(const ReducePlan& p, const float* dy, float* dx, bool accum, float scale);

}  // namespace nn::ops
