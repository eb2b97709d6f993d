// Reduction planning and the shared sum / broadcast-back kernels.
#include "ops/detail/reduce.hpp"

#include <algorithm>

#include "nn/core/error.hpp"

namespace nn::ops {

namespace {
// Offsets of every element of the sub-space spanned by `axes` (in order), with the given strides.
std::vector<int64_t> offsets_over(const Shape& shape, const Shape& strides, const std::vector<int>& axes) {
  std::vector<int64_t> offs{0};
  for (int a : axes) {
    std::vector<int64_t> next;
    next.reserve(offs.size() * shape[a]);
    for (int64_t o : offs)
      for (int64_t k = 0; k < shape[a]; ++k) next.push_back(o + k * strides[a]);
    offs.swap(next);
  }
  return offs;
}
}  // namespace

ReducePlan make_reduce_plan(const Shape& in, const std::vector<int64_t>& axes, bool has_axes, bool keep_dims) {
  ReducePlan p;
  p.in_shape = in;
  p.reduced.assign(in.size(), !has_axes);
  for (auto a : axes) p.reduced[normalize_axis(a, in.size(), "reduction axis")] = true;
  std::vector<int> kept, red;
  for (size_t i = 0; i < in.size(); ++i) {
    if (p.reduced[i]) {
      red.push_back(int(i));
      if (keep_dims) p.out_shape.push_back(1);
    } else {
      kept.push_back(int(i));
      p.out_shape.push_back(in[i]);
    }
  }
  auto strides = shape_strides(in);
  p.out_offsets = offsets_over(in, strides, kept);
  p.red_offsets = offsets_over(in, strides, red);
  p.out_size = int64_t(p.out_offsets.size());
  p.reduce_size = int64_t(p.red_offsets.size());
  return p;
}

void reduce_sum(const ReducePlan& p, const float* x, float* y) {
#pragma omp parallel for if (p.out_size * p.reduce_size > (1 << 15))
  for (int64_t o = 0; o < p.out_size; ++o) {
    double s = 0;
    const float* base = x + p.out_offsets[o];
    for (int64_t r = 0; r < p.reduce_size; ++r) s += base[p.red_offsets[r]];
    y[o] = float(s);
  }
}

void broadcast_back(const ReducePlan& p, const float* dy, float* dx, bool accum, float scale) {
#pragma omp parallel for if (p.out_size * p.reduce_size > (1 << 15))
  for (int64_t o = 0; o < p.out_size; ++o) {
    float g = dy[o] * scale;
    float* base = dx + p.out_offsets[o];
    for (int64_t r = 0; r < p.reduce_size; ++r) {
      float& d = base[p.red_offsets[r]];
      d = accum ? d + g : g;
    }
  }
}

}  // namespace nn::ops
