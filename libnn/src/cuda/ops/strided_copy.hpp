// What the CUDA data-movement ops (strided views, concatenation, reductions, remaps) share: strided-copy views
// built from the CPU kernels' geometry, reduction dims, and a base taking the CPU kernel's output count.
#pragma once
#include <utility>
#include <vector>

#include "cuda/kernels/shape.hpp"
#include "cuda/ops/cuda_ops.hpp"
#include "ops/array/strided.hpp"

namespace nn::cuda {

inline void check_rank(const Shape& s, const std::string& op) {
  NN_CHECK(s.size() <= size_t(k::kMaxDims))
      << op << ": the CUDA kernel supports at most " << k::kMaxDims << " dimensions, not " << to_string(s);
}

// The identity copy of a contiguous array of shape s (both sides contiguous).
inline k::StridedView contiguous_view(const Shape& s) {
  k::StridedView v;
  v.ndim = int(s.size());
  const Shape strides = shape_strides(s);
  for (int d = 0; d < v.ndim; ++d) {
    v.shape[d] = s[d];
    v.src_strides[d] = v.dst_strides[d] = strides[d];
  }
  return v;
}

// The CPU kernel's view of x (ops/array/strided.hpp) as a copy into a contiguous output.
inline k::StridedView device_view(const ops::StridedView& cpu, const std::string& op) {
  check_rank(cpu.shape, op);
  k::StridedView v = contiguous_view(cpu.shape);
  for (int d = 0; d < v.ndim; ++d) v.src_strides[d] = cpu.stride[size_t(d)];
  v.src_offset = cpu.base;
  return v;
}

// The view with source and destination exchanged (a gather turned into the matching scatter).
inline k::StridedView reversed(k::StridedView v) {
  std::swap(v.src_strides, v.dst_strides);
  std::swap(v.src_offset, v.dst_offset);
  return v;
}

// Block `k` of n along the middle axis of an (outer, n, inner) array, copied to or from a contiguous
// (outer, inner) array: the source side is the block, the destination the contiguous array.
inline k::StridedView block_of(int64_t outer, int64_t n, int64_t inner, int64_t k) {
  k::StridedView v;
  v.ndim = 2;
  v.shape[0] = outer;
  v.shape[1] = inner;
  v.src_strides[0] = n * inner;
  v.src_strides[1] = 1;
  v.dst_strides[0] = inner;
  v.dst_strides[1] = 1;
  v.src_offset = k * inner;
  return v;
}

// Sums of x (shape xs) over the axes flagged in `reduced`; outputs in C order of the kept axes.
inline k::ReduceDims reduce_dims(const Shape& xs, const std::vector<bool>& reduced) {
  k::ReduceDims d;
  const Shape strides = shape_strides(xs);
  for (size_t a = 0; a < xs.size(); ++a) {
    if (reduced[a]) {
      d.reduced_shape[d.reduced_ndim] = xs[a];
      d.reduced_strides[d.reduced_ndim++] = strides[a];
      d.reduced *= xs[a];
    } else {
      d.kept_shape[d.kept_ndim] = xs[a];
      d.kept_strides[d.kept_ndim++] = strides[a];
      d.outputs *= xs[a];
    }
  }
  return d;
}

// CudaWithCpuSetup that also takes the CPU kernel's output count and stochastic flag.
class CudaCpuShaped : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;
  int num_outputs(const std::vector<Shape>& input_shapes) const override {
    return cpu_->num_outputs(input_shapes);
  }
  bool is_stochastic() const override { return cpu_->is_stochastic(); }
};

}  // namespace nn::cuda
