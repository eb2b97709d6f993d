// ConvLayer: shape checks and forward/backward of a (grouped) convolution on raw arrays, shared by
// Convolution, DepthwiseConvolution and the binary convolutions (which feed it a transformed weight).
#pragma once
#include <string>

#include "ops/nn_layer/conv_core.hpp"

namespace nn::ops {

class ConvLayer {
 public:
  // x: batch dims [0, base_axis), channels, spatial...; w: (OC, C/group, kernel...); b: (OC,) or null.
  // Throws naming `fn` on any mismatch; returns the output shape.
  Shape setup(const std::string& fn, const Shape& x, const Shape& w, const Shape* b, const Attrs& attrs,
              int64_t group);
  // w_version: as ConvEngine::forward's.
  void forward(const float* x, const float* w, const float* b, float* y, uint64_t w_version = 0);
  // Gradients; a null pointer skips that input. dx is added to when accum_x, else overwritten (the same for
  // dw/db). dx must be writable with its old content when accum_x.
  void backward(const float* x, const float* w, const float* dy, float* dx, bool accum_x, float* dw, bool accum_w,
                float* db, bool accum_b);
  int64_t out_channels() const { return oc_; }
  int64_t group() const { return group_; }
  int64_t batch() const { return batch_; }
  const ConvGeometry& geometry() const { return engine_.geometry(); }

 private:
  ConvEngine engine_;
  int64_t batch_ = 0, oc_ = 0, group_ = 1;
};

}  // namespace nn::ops
