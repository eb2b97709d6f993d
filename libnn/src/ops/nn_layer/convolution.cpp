// Convolution (N-D, grouped, dilated) and DepthwiseConvolution: im2col + SGEMM through ConvLayer.
#include "ops/detail/op_common.hpp"
#include "ops/nn_layer/conv_infer.hpp"
#include "ops/nn_layer/conv_layer.hpp"

namespace nn::ops {
namespace {

// Shared Function body: x, weight, optional bias -> y. Subclasses only say how the weight shape maps to a
// grouped convolution.
class ConvFunctionBase : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int i, int j) const override { return (i == 0 && j == 1) || (i == 1 && j == 0); }

 protected:
  // The weight as (OC, C/group, kernel...) and the group count.
  virtual Shape grouped_weight_shape(const Shape& x, const Shape& w, int64_t& group) const = 0;

  void setup_impl(const Variables& in, const Variables& out) override {
    int64_t group = 1;
    const Shape w = grouped_weight_shape(in[0]->shape(), in[1]->shape(), group);
    Shape b;
    if (in.size() > 2) b = in[2]->shape();
    out[0]->reshape(layer_.setup(type(), in[0]->shape(), w, in.size() > 2 ? &b : nullptr, attrs_, group), true);
    ConvEpilogue bias_only;
    bias_only.bias = in.size() > 2;
    fused_.reset(layer_.geometry(), layer_.out_channels(), layer_.group(), layer_.batch(), bias_only);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    if (ctx_.is_cpu_only() && !ctx_.uses_half() &&
        fused_.try_forward(*in[0]->data(), *in[1]->data(), in.size() > 2 ? in[2]->data().get() : nullptr, nullptr,
                           *out[0]->data()))
      return;
    layer_.forward(in_data(in[0]), in_data(in[1]), in.size() > 2 ? in_data(in[2]) : nullptr, out_data(out[0]),
                   in[1]->data()->version());
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const bool has_b = in.size() > 2;
    float* dx = prop[0] ? in_grad(in[0], accum[0]) : nullptr;
    float* dw = prop[1] ? in_grad(in[1], accum[1]) : nullptr;
    float* db = has_b && prop[2] ? in_grad(in[2], accum[2]) : nullptr;
    layer_.backward(prop[1] ? in_data(in[0]) : nullptr, prop[0] ? in_data(in[1]) : nullptr, out_grad(out[0]), dx,
                    accum[0], dw, accum[1], db, has_b && accum[2]);
  }

  ConvLayer layer_;
  InferenceConvSlot fused_;  // bias fused, activations kept in oneDNN's layout (gradients off only)
};

class Convolution : public ConvFunctionBase {
 public:
  using ConvFunctionBase::ConvFunctionBase;

 protected:
  Shape grouped_weight_shape(const Shape&, const Shape& w, int64_t& group) const override {
    group = attrs_.get_int("group");
    return w;
  }
};

class DepthwiseConvolution : public ConvFunctionBase {
 public:
  using ConvFunctionBase::ConvFunctionBase;

 protected:
  // Weight (C * multiplier, kernel...): output channel c * multiplier + m reads input channel c only.
  Shape grouped_weight_shape(const Shape& x, const Shape& w, int64_t& group) const override {
    const int64_t base_axis = attrs_.get_int("base_axis");
    const int64_t multiplier = attrs_.get_int("multiplier");
    NN_CHECK(base_axis >= 0 && base_axis < int64_t(x.size()) - 1)
        << "DepthwiseConvolution: base_axis " << base_axis << " out of range for input " << to_string(x);
    NN_CHECK(multiplier >= 1) << "DepthwiseConvolution: multiplier " << multiplier << " must be >= 1";
    const int64_t channels = x[size_t(base_axis)];
    NN_CHECK(w.size() >= 2 && w[0] == channels * multiplier)
        << "DepthwiseConvolution: weight " << to_string(w) << " must be (" << channels * multiplier
        << ", kernel...) for input " << to_string(x) << " and multiplier " << multiplier;
    group = channels;
    Shape g{w[0], 1};
    g.insert(g.end(), w.begin() + 1, w.end());
    return g;
  }
};

SchemaBuilder& conv_args(SchemaBuilder& s) {
  return s.arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
      .arg("pad", AttrType::kShape, std::nullopt, "0s")
      .arg("stride", AttrType::kShape, std::nullopt, "1s")
      .arg("dilation", AttrType::kShape, std::nullopt, "1s");
}
}  // namespace

void register_convolution(OpRegistry& r) {
  SchemaBuilder s("Convolution", "Neural Network Layer");
  s.doc("N-D convolution: y = W * x + b over spatial axes after base_axis").in("x").in_param("weight");
  s.in_optional("bias", true);
  conv_args(s).arg("group", AttrType::kInt, AttrValue(int64_t(1)));
  s.arg("channel_last", AttrType::kBool, AttrValue(false)).out("y");
  register_cpu<Convolution>(r, s.build());
}

void register_depthwise_convolution(OpRegistry& r) {
  SchemaBuilder s("DepthwiseConvolution", "Neural Network Layer");
  s.doc("per-channel convolution with `multiplier` output maps per input channel").in("x").in_param("weight");
  s.in_optional("bias", true);
  conv_args(s).arg("multiplier", AttrType::kInt, AttrValue(int64_t(1))).out("y");
  register_cpu<DepthwiseConvolution>(r, s.build());
}

}  // namespace nn::ops
