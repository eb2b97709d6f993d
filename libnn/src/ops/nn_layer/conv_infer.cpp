// InferenceConvSlot: when to use the fused oneDNN inference convolution (conv_dnnl_infer.cpp).
#include "ops/nn_layer/conv_infer.hpp"

#include "nn/graph/grad_mode.hpp"

namespace nn::ops {

#ifdef NN_WITH_DNNL
std::shared_ptr<InferenceConv> make_inference_conv(const ConvGeometry& g, int64_t out_channels, int64_t group,
                                                   int64_t batch, const ConvEpilogue& e);
void run_inference_conv(InferenceConv& conv, NdArray& x, NdArray& w, NdArray* b, NdArray* z, NdArray& y);
#endif

bool fusable_activation(const std::string& activation) {
  for (const char* name : {"", "identity", "relu", "leaky_relu", "relu6", "sigmoid", "tanh", "elu", "swish",
                           "hard_sigmoid", "hard_swish"})
    if (activation == name) return true;
  return false;
}

size_t nonlinearity_arg_count(const std::string& activation) {
  if (activation == "leaky_relu" || activation == "elu") return 1;
  return activation == "hard_sigmoid" ? 2 : 0;
}

void InferenceConvSlot::reset(const ConvGeometry& g, int64_t out_channels, int64_t group, int64_t batch,
                              ConvEpilogue e) {
  g_ = g;
  oc_ = out_channels;
  group_ = group;
  batch_ = batch;
  e_ = std::move(e);
  flops_ = g.flops(out_channels, group, batch);
  tried_ = false;
  conv_.reset();
}

bool InferenceConvSlot::try_forward(NdArray& x, NdArray& w, NdArray* b, NdArray* z, NdArray& y) {
#ifdef NN_WITH_DNNL
  // The layouts are those of (batch, channels, spatial...) arrays: base_axis 1 only. Below kMinFlops the
  // primitive's fixed cost per call (memory objects, a stream, timing) is more than the work (LeNet's
  // layers), unless the input is already in a oneDNN layout (a small depthwise layer inside a chain).
  if (grad_enabled() || x.ndim() != int(g_.in.size()) + 2 || y.ndim() != x.ndim()) return false;
  if (flops_ < kMinFlops && x.device() == "cpu") return false;
  if (!tried_) {
    tried_ = true;
    if (dnnl_enabled() && fusable_activation(e_.activation))
      conv_ = make_inference_conv(g_, oc_, group_, batch_, e_);
  }
  if (!conv_) return false;
  run_inference_conv(*conv_, x, w, b, z, y);
  return true;
#else
  (void)x, (void)w, (void)b, (void)z, (void)y;
  return false;
#endif
}

}  // namespace nn::ops
