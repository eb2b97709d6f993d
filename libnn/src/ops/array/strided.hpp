// Strided views for data-movement ops: each output element reads input[base + sum(index_d * stride_d)].
#pragma once
#include <cstdint>
#include <vector>

#include "nn/core/shape.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::ops {

// A view of the input with the output's shape: per output axis an input stride (0 broadcasts,
// negative flips) and a base offset. Ops such as Tile may use more view axes than output axes,
// as long as the view's C-order element sequence equals the output's.
struct StridedView {
  Shape shape;                  // view shape (its element count is the output size)
  std::vector<int64_t> stride;  // input stride per view axis
  int64_t base = 0;             // input offset of view index (0, ..., 0)
};

// The views of the ops whose output is one view of one input, from their arguments (checked against the
// input shapes): the CPU kernels and the CUDA ones copy through the same view.
StridedView transpose_view(const Attrs& attrs, const Shape& xs);
StridedView broadcast_view(const Attrs& attrs, const Shape& xs);
StridedView broadcast_to_view(const Attrs& attrs, const Shape& xs, const Shape& ys);  // a view of y
StridedView flip_view(const Attrs& attrs, const Shape& xs);
StridedView slice_view(const Attrs& attrs, const Shape& xs);

// Calls f(out_index, in_offset) for every element in C order (odometer over the view shape).
template <class F>
void for_each_strided(const StridedView& v, F&& f) {
  const int nd = int(v.shape.size());
  const int64_t n = shape_size(v.shape);
  if (n == 0) return;
  std::vector<int64_t> idx(size_t(nd), 0);
  int64_t off = v.base;
  for (int64_t i = 0; i < n; ++i) {
    f(i, off);
    for (int d = nd - 1; d >= 0; --d) {
      if (++idx[d] < v.shape[d]) {
        off += v.stride[d];
        break;
      }
      off -= v.stride[d] * (v.shape[d] - 1);
      idx[d] = 0;
    }
  }
}

// y[i] = x[view(i)].
inline void strided_gather(const StridedView& v, const float* x, float* y) {
  for_each_strided(v, [&](int64_t i, int64_t off) { y[i] = x[off]; });
}

// dx[view(i)] += dy[i]; dx must already hold the values to add onto (zeros when not accumulating).
inline void strided_scatter_add(const StridedView& v, const float* dy, float* dx) {
  for_each_strided(v, [&](int64_t i, int64_t off) { dx[off] += dy[i]; });
}

}  // namespace nn::ops
