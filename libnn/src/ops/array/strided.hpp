// Strided views for data-movement ops: each output element reads input[base + sum(index_d * stride_d)].
#pragma once
#include <algorithm>
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

// The same element sequence with size-1 axes dropped and neighbours merged where one stride walks both.
inline StridedView merged_axes(const StridedView& v) {
  StridedView m;
  m.base = v.base;
  for (size_t d = 0; d < v.shape.size(); ++d) {
    if (v.shape[d] == 1) continue;
    if (!m.shape.empty() && m.stride.back() == v.stride[d] * v.shape[d]) {
      m.shape.back() *= v.shape[d];
      m.stride.back() = v.stride[d];
    } else {
      m.shape.push_back(v.shape[d]);
      m.stride.push_back(v.stride[d]);
    }
  }
  return m;
}

// Calls f(out_index, in_offset, count, in_stride) for each run of the view's last merged axis, in C order.
template <class F>
void for_each_strided_run(const StridedView& view, F&& f) {
  if (shape_size(view.shape) == 0) return;
  const StridedView v = merged_axes(view);
  if (v.shape.empty()) return f(int64_t(0), v.base, int64_t(1), int64_t(1));
  const int nd = int(v.shape.size());
  const int64_t n = shape_size(v.shape), run = v.shape.back(), run_stride = v.stride.back();
  std::vector<int64_t> idx(size_t(nd), 0);
  int64_t off = v.base;
  for (int64_t i = 0; i < n; i += run) {
    f(i, off, run, run_stride);
    for (int d = nd - 2; d >= 0; --d) {
      if (++idx[size_t(d)] < v.shape[size_t(d)]) {
        off += v.stride[size_t(d)];
        break;
      }
      off -= v.stride[size_t(d)] * (v.shape[size_t(d)] - 1);
      idx[size_t(d)] = 0;
    }
  }
}

// y[i] = x[view(i)], a run of the last merged axis at a time (Transpose, Slice, Broadcast: 23 us per 16k-element
// attention Slice or Transpose with an odometer step per element).
inline void strided_gather(const StridedView& v, const float* x, float* y) {
  for_each_strided_run(v, [&](int64_t i, int64_t off, int64_t count, int64_t stride) {
    float* out = y + i;
    const float* in = x + off;
    if (stride == 1) {
      std::copy(in, in + count, out);
    } else {
      for (int64_t k = 0; k < count; ++k) out[k] = in[k * stride];
    }
  });
}

// dx[view(i)] += dy[i]; dx must already hold the values to add onto (zeros when not accumulating).
inline void strided_scatter_add(const StridedView& v, const float* dy, float* dx) {
  for_each_strided(v, [&](int64_t i, int64_t off) { dx[off] += dy[i]; });
}

}  // namespace nn::ops
