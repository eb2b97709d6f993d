// oneDNN convolution for ConvEngine: one primitive per batch instead of per-sample im2col + GEMM.
#pragma once
#include <cstdint>
#include <memory>

#include "ops/nn_layer/conv_core.hpp"

namespace nn::ops {

class DnnlConv {
 public:
  // nullptr when oneDNN cannot run this geometry (more than 3 spatial axes, negative right padding).
  static std::unique_ptr<DnnlConv> create(const ConvGeometry& g, int64_t out_channels, int64_t group,
                                          int64_t batch);
  ~DnnlConv();
  // Every call overwrites its output: y = conv(x, w), dx = conv^T(dy, w), dw = sum_b dy * x.
  // w_version: the weights' content version (NdArray::version(); 0 = unknown): their reordered copy is kept
  // while it stays the same.
  void forward(const float* x, const float* w, float* y, uint64_t w_version = 0);
  // dx (when not null) and dw (when not null) from one reorder of dy where both primitives take its layout.
  void backward(const float* x, const float* w, const float* dy, float* dx, float* dw);

 private:
  struct Impl;
  explicit DnnlConv(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace nn::ops
