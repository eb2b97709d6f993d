// Inference convolution: bias, a residual add and an activation fused into one oneDNN primitive (nnabla's
// FusedConvolution order), weights reordered once per content version, and activations kept in the dnnl16
// layout between convolutions. Used only with gradients off on a CPU float context; else the caller's path.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "nn/core/ndarray.hpp"
#include "ops/nn_layer/conv_core.hpp"

namespace nn::ops {

// What the primitive applies after the convolution, in this order.
struct ConvEpilogue {
  bool bias = false;
  bool residual = false;  // + z, an array of the output's shape
  std::string
      activation;     // FusedConvolution's nonlinearity names ("" = identity), plus nncli's "swish",
                      // "hard_sigmoid" (clip(alpha x + beta, 0, 1)) and "hard_swish" (x clip(x / 6 + 0.5, 0, 1))
  float alpha = 0.f;  // leaky_relu's, elu's and hard_sigmoid's alpha
  float beta = 0.f;   // hard_sigmoid's beta
};

// Whether the fused primitive can apply this activation (FusedConvolution's names and nncli's).
bool fusable_activation(const std::string& activation);
// How many nonlinearity_args the activation takes: leaky_relu's and elu's alpha, hard_sigmoid's alpha and beta.
size_t nonlinearity_arg_count(const std::string& activation);

class InferenceConv;

// The fused convolution of one function: built at the first forward that can use it, dropped at setup.
class InferenceConvSlot {
 public:
  void reset(const ConvGeometry& g, int64_t out_channels, int64_t group, int64_t batch, ConvEpilogue e);
  // Runs y = act(conv(x, w) + b + z) when gradients are off and oneDNN takes this geometry: false otherwise
  // (the caller then runs its own path). b and z may be null.
  bool try_forward(NdArray& x, NdArray& w, NdArray* b, NdArray* z, NdArray& y);

 private:
  ConvGeometry g_;
  int64_t oc_ = 0, group_ = 1, batch_ = 0;
  ConvEpilogue e_;
  double flops_ = 0;
  static constexpr double kMinFlops = 1e6;
  bool tried_ = false;
  std::shared_ptr<InferenceConv> conv_;
};

}  // namespace nn::ops
