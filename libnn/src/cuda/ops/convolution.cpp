// cuDNN kernels of Convolution, DepthwiseConvolution, Deconvolution, DepthwiseDeconvolution and the binary
// convolutions: each is one grouped cuDNN convolution (deconvolutions run it transposed) plus a bias kernel.
#include <type_traits>

#include "cuda/kernels/conv.hpp"
#include "cuda/ops/cuda_ops.hpp"
#include "cuda/ops/cudnn_conv.hpp"
#include "ops/binary_layer/binary_layer_args.hpp"
#include "ops/nn_layer/conv_core.hpp"

namespace nn::cuda {
namespace {

enum class ConvKind {
  kConvolution,
  kDepthwiseConvolution,
  kDeconvolution,
  kDepthwiseDeconvolution,
  kBinaryConnect,
  kBinaryWeight
};

template <class T>
constexpr cudnnDataType_t cudnn_type() {
  return std::is_same_v<T, __half> ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
}

// The cuDNN convolution behind each op, from the shapes the CPU setup validated (x, w, y) and the attrs.
// Convolutions: X = x, Y = y. Deconvolutions are the transpose of the convolution with X = y and Y = x, whose
// filter (x channels, y channels / group, kernel...) is the deconvolution weight as the CPU kernel lays it out.
ConvProblem conv_problem(ConvKind kind, const std::string& op, const Shape& x, const Shape& w, const Shape& y,
                         const Attrs& attrs) {
  const size_t base_axis = size_t(attrs.get_int("base_axis"));
  const size_t spatial = x.size() - base_axis - 1;
  const ops::ConvArgs args = ops::read_conv_args(attrs, spatial, op);
  const Shape x_spatial(x.begin() + base_axis + 1, x.end());
  const Shape y_spatial(y.begin() + base_axis + 1, y.end());
  ConvProblem p;
  p.batch = shape_size(x, 0, base_axis);
  p.pad = args.pad;
  p.stride = args.stride;
  p.dilation = args.dilation;
  const bool deconv = kind == ConvKind::kDeconvolution || kind == ConvKind::kDepthwiseDeconvolution;
  p.in_channels = deconv ? y[base_axis] : x[base_axis];
  p.out_channels = deconv ? x[base_axis] : y[base_axis];
  p.in = deconv ? y_spatial : x_spatial;
  p.out = deconv ? x_spatial : y_spatial;
  switch (kind) {
    case ConvKind::kConvolution:
    case ConvKind::kBinaryConnect:
    case ConvKind::kBinaryWeight:
    case ConvKind::kDeconvolution:  // w: (OC, C / group, kernel...) or (x channels, y channels / group, kernel...)
      p.group = attrs.get_int("group");
      p.kernel.assign(w.begin() + 2, w.end());
      break;
    case ConvKind::kDepthwiseConvolution:  // w: (C * multiplier, kernel...), one group per input channel
      p.group = p.in_channels;
      p.kernel.assign(w.begin() + 1, w.end());
      break;
    case ConvKind::kDepthwiseDeconvolution:  // w: (C, kernel...), `divisor` x channels per y channel
      p.group = p.in_channels;
      p.kernel.assign(w.begin() + 1, w.end());
      break;
  }
  return p;
}

// One Function for every conv-like op; T is the storage type (float, or __half for cudnn:half).
template <class T, ConvKind kKind>
class CudnnConvolution : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  static constexpr bool kDeconv = kKind == ConvKind::kDeconvolution || kKind == ConvKind::kDepthwiseDeconvolution;
  static constexpr bool kBinary = kKind == ConvKind::kBinaryConnect || kKind == ConvKind::kBinaryWeight;
  // Inputs: x, weight[, binary_weight[, alpha]][, bias].
  static constexpr size_t kBiasIndex = kKind == ConvKind::kBinaryConnect  ? 3
                                       : kKind == ConvKind::kBinaryWeight ? 4
                                                                          : 2;

  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK_CODE(!(attrs_.has("channel_last") && attrs_.get_bool("channel_last")), ErrorCode::kUnsupported)
        << type() << ": channel_last=true is not supported by the cuDNN kernel (input "
        << to_string(in[0]->shape()) << "); use the channel-first layout";
    CudaWithCpuSetup::setup_impl(in, out);
    const Shape& y = out[0]->shape();
    conv_.setup(type(), conv_problem(kKind, type(), in[0]->shape(), in[1]->shape(), y, attrs_), cudnn_type<T>(),
                ctx_.device_id);
    const int64_t base_axis = attrs_.get_int("base_axis");
    bias_outer_ = shape_size(y, 0, size_t(base_axis));
    bias_channels_ = y[size_t(base_axis)];
    bias_inner_ = shape_size(y, size_t(base_axis) + 1, y.size());
    scaled_weight_.reset();
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const T* x = data_in<T>(in[0]);
    const T* w = kBinary ? binarized_weight(in) : data_in<T>(in[1]);
    T* y = data_out<T>(out[0]);
    if (kDeconv) {
      conv_.backward_data(w, x, y, 0.f);
    } else {
      conv_.forward(x, w, y, 0.f);
    }
    if (has_bias(in))
      k::conv_bias_forward(st(), bias_outer_, bias_channels_, bias_inner_, data_in<T>(in[kBiasIndex]), y);
  }

  // Binary convolutions: the float weight gets the gradient of the weight the forward pass applied; the
  // binary weight and alpha get none (as the CPU kernel).
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    auto scope = enter();
    const T* dy = grad_out<T>(out[0]);
    if (has_bias(in) && prop[kBiasIndex]) {
      k::conv_bias_backward(st(), bias_outer_, bias_channels_, bias_inner_, dy,
                            grad_in<T>(in[kBiasIndex], accum[kBiasIndex]), accum[kBiasIndex]);
    }
    if (prop[0]) {
      const T* w = kBinary ? applied_weight(in) : data_in<T>(in[1]);
      T* dx = grad_in<T>(in[0], accum[0]);
      if (kDeconv) {
        conv_.forward(dy, w, dx, accum[0] ? 1.f : 0.f);
      } else {
        conv_.backward_data(w, dy, dx, accum[0] ? 1.f : 0.f);
      }
    }
    if (prop[1]) {
      const T* x = data_in<T>(in[0]);
      T* dw = grad_in<T>(in[1], accum[1]);
      if (kDeconv) {
        conv_.backward_filter(dy, x, dw, accum[1] ? 1.f : 0.f);
      } else {
        conv_.backward_filter(x, dy, dw, accum[1] ? 1.f : 0.f);
      }
    }
  }

 private:
  bool has_bias(const Variables& in) const { return in.size() > kBiasIndex; }

  // Writes binary_weight (and alpha) from weight as the CPU kernel does; returns the weight to apply.
  const T* binarized_weight(const Variables& in) {
    const float zero_to = ops::BinaryLayerArgs(attrs_).quantize_zero_to;
    const int64_t n = in[1]->size();
    const T* w = data_in<T>(in[1]);
    T* bw = data_out<T>(in[2]);
    if constexpr (kKind == ConvKind::kBinaryWeight) {
      const int64_t outputs = in[1]->shape()[0];
      if (!scaled_weight_) scaled_weight_ = device_buffer(size_t(n) * sizeof(T));
      T* scaled = static_cast<T*>(scaled_weight_->ptr);
      k::binarize_weight_scaled(st(), outputs, outputs == 0 ? 0 : n / outputs, w, bw, data_out<T>(in[3]), scaled,
                                zero_to);
      return scaled;
    } else {
      k::binarize_weight(st(), n, w, bw, zero_to);
      return bw;
    }
  }
  // The weight the last forward pass applied.
  const T* applied_weight(const Variables& in) {
    if constexpr (kKind == ConvKind::kBinaryWeight) {
      NN_INTERNAL_CHECK(scaled_weight_) << type() << ": backward before forward";
      return static_cast<const T*>(scaled_weight_->ptr);
    } else {
      return data_in<T>(in[2]);
    }
  }

  CudnnConv conv_;
  int64_t bias_outer_ = 0, bias_channels_ = 0, bias_inner_ = 0;
  std::shared_ptr<Buffer> scaled_weight_;  // BinaryWeightConvolution: sign(W) * alpha, kept for backward
};

template <class T>
using CudnnConv2 = CudnnConvolution<T, ConvKind::kConvolution>;
template <class T>
using CudnnDepthwiseConv = CudnnConvolution<T, ConvKind::kDepthwiseConvolution>;
template <class T>
using CudnnDeconv = CudnnConvolution<T, ConvKind::kDeconvolution>;
template <class T>
using CudnnDepthwiseDeconv = CudnnConvolution<T, ConvKind::kDepthwiseDeconvolution>;
template <class T>
using CudnnBinaryConnectConv = CudnnConvolution<T, ConvKind::kBinaryConnect>;
template <class T>
using CudnnBinaryWeightConv = CudnnConvolution<T, ConvKind::kBinaryWeight>;

}  // namespace

void register_convolution_kernels(OpRegistry& r) {
  add_float_and_half_kernels<CudnnConv2>(r, "Convolution", "cudnn");
  add_float_and_half_kernels<CudnnDepthwiseConv>(r, "DepthwiseConvolution", "cudnn");
  add_float_and_half_kernels<CudnnDeconv>(r, "Deconvolution", "cudnn");
  add_float_and_half_kernels<CudnnDepthwiseDeconv>(r, "DepthwiseDeconvolution", "cudnn");
  add_float_and_half_kernels<CudnnBinaryConnectConv>(r, "BinaryConnectConvolution", "cudnn");
  add_float_and_half_kernels<CudnnBinaryWeightConv>(r, "BinaryWeightConvolution", "cudnn");
}

}  // namespace nn::cuda
