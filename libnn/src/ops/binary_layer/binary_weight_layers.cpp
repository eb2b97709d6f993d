// BinaryConnectAffine/Convolution (weights binarized to +-1) and BinaryWeightAffine/Convolution (+-1 scaled
// by the mean |W| of each output). Forward writes binary_weight (and alpha); the float weight receives the
// gradient of the weight actually used (straight-through, as upstream).
#include <cmath>

#include "ops/binary_layer/binary_layer_args.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/nn_layer/affine_core.hpp"
#include "ops/nn_layer/conv_layer.hpp"

namespace nn::ops {
namespace {

class BinaryLayer : public Function {
 public:
  // scaled: BinaryWeight* (inputs x, weight, binary_weight, alpha[, bias]); else BinaryConnect* (x, weight,
  // binary_weight[, bias]). affine: Affine geometry; else Convolution.
  BinaryLayer(const OpSchema& s, const Context& c, const Attrs& a, bool scaled, bool affine)
      : Function(s, c, a), args_(attrs_), scaled_(scaled), affine_(affine), bias_index_(scaled ? 4 : 3) {}

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& x = in[0]->shape();
    const Shape& w = in[1]->shape();
    NN_CHECK(in[2]->shape() == w) << type() << ": binary_weight " << to_string(in[2]->shape())
                                  << " must have the shape of weight " << to_string(w);
    NN_CHECK(!w.empty() && w[0] > 0) << type() << ": weight " << to_string(w) << " is empty";
    // Outputs of the layer that each own one alpha: columns of the affine weight, rows of the conv weight.
    outputs_ = affine_ ? shape_size(w, 1, w.size()) : w[0];
    per_output_ = shape_size(w) / outputs_;
    if (scaled_) {
      NN_CHECK(in[3]->size() == outputs_) << type() << ": alpha " << to_string(in[3]->shape()) << " must have "
                                          << outputs_ << " elements for weight " << to_string(w);
    }
    Shape b;
    const bool has_b = int(in.size()) > bias_index_;
    if (has_b) b = in[size_t(bias_index_)]->shape();
    Shape y;
    if (affine_) {
      plan_ = plan_affine(type(), x, w, has_b ? &b : nullptr, args_.base_axis);
      y = plan_.y_shape;
    } else {
      y = conv_.setup(type(), x, w, has_b ? &b : nullptr, attrs_, attrs_.get_int("group"));
    }
    if (scaled_) scaled_w_.assign(size_t(shape_size(w)), 0.f);
    out[0]->reshape(y, true);
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* w = in_data(in[1]);
    float* bw = in[2]->data()->cast<float>(true);
    const float zero_to = args_.quantize_zero_to;
    const int64_t n = in[1]->size();
    for (int64_t i = 0; i < n; ++i) bw[i] = w[i] > 0.f ? 1.f : w[i] < 0.f ? -1.f : zero_to;
    const float* used = bw;
    if (scaled_) {
      float* alpha = in[3]->data()->cast<float>(true);
      std::fill(alpha, alpha + outputs_, 0.f);
      for (int64_t i = 0; i < n; ++i) alpha[output_of(i)] += std::fabs(w[i]);
      for (int64_t o = 0; o < outputs_; ++o) alpha[o] /= float(per_output_);
      for (int64_t i = 0; i < n; ++i) scaled_w_[size_t(i)] = bw[i] * alpha[output_of(i)];
      used = scaled_w_.data();
    }
    const float* b = int(in.size()) > bias_index_ ? in_data(in[size_t(bias_index_)]) : nullptr;
    if (affine_) {
      affine_forward(plan_, in_data(in[0]), used, b, out_data(out[0]));
    } else {
      conv_.forward(in_data(in[0]), used, b, out_data(out[0]));
    }
  }

  // binary_weight and alpha receive no gradient (upstream treats them as outputs of the binarization).
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const bool has_b = int(in.size()) > bias_index_;
    const size_t bi = size_t(bias_index_);
    const float* used = prop[0] ? (scaled_ ? scaled_w_.data() : in_data(in[2])) : nullptr;
    const float* x = prop[1] ? in_data(in[0]) : nullptr;
    float* dx = prop[0] ? in_grad(in[0], accum[0]) : nullptr;
    float* dw = prop[1] ? in_grad(in[1], accum[1]) : nullptr;
    float* db = has_b && prop[bi] ? in_grad(in[bi], accum[bi]) : nullptr;
    const bool accum_b = has_b && accum[bi];
    if (affine_) {
      affine_backward(plan_, x, used, out_grad(out[0]), dx, accum[0], dw, accum[1], db, accum_b);
    } else {
      conv_.backward(x, used, out_grad(out[0]), dx, accum[0], dw, accum[1], db, accum_b);
    }
  }

 private:
  int64_t output_of(int64_t i) const { return affine_ ? i % outputs_ : i / per_output_; }

  BinaryLayerArgs args_;
  bool scaled_, affine_;
  int bias_index_;
  int64_t outputs_ = 0, per_output_ = 0;
  AffinePlan plan_;
  ConvLayer conv_;
  std::vector<float> scaled_w_;  // BinaryWeight*: sign(W) * alpha, the weight the layer applies
};

template <bool kScaled, bool kAffine>
class BinaryLayerT : public BinaryLayer {
 public:
  BinaryLayerT(const OpSchema& s, const Context& c, const Attrs& a) : BinaryLayer(s, c, a, kScaled, kAffine) {}
};

OpSchema binary_schema(const char* name, bool scaled, bool affine) {
  SchemaBuilder s(name, "Quantization Neural Network Layers");
  s.doc(scaled ? "layer with weights binarized to +-mean|W| per output" : "layer with weights binarized to +-1");
  s.in("x").in_param("weight").in_param("binary_weight");
  if (scaled) s.in_param("alpha");
  s.in_optional("bias", true);
  s.arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)));
  if (!affine) {
    s.arg("pad", AttrType::kShape, std::nullopt, "0s")
        .arg("stride", AttrType::kShape, std::nullopt, "1s")
        .arg("dilation", AttrType::kShape, std::nullopt, "1s")
        .arg("group", AttrType::kInt, AttrValue(int64_t(1)));
  }
  s.arg("quantize_zero_to", AttrType::kFloat, AttrValue(1.0)).out("y");
  return s.build();
}
}  // namespace

void register_binary_connect_affine(OpRegistry& r) {
  register_cpu<BinaryLayerT<false, true>>(r, binary_schema("BinaryConnectAffine", false, true));
}
void register_binary_connect_convolution(OpRegistry& r) {
  register_cpu<BinaryLayerT<false, false>>(r, binary_schema("BinaryConnectConvolution", false, false));
}
void register_binary_weight_affine(OpRegistry& r) {
  register_cpu<BinaryLayerT<true, true>>(r, binary_schema("BinaryWeightAffine", true, true));
}
void register_binary_weight_convolution(OpRegistry& r) {
  register_cpu<BinaryLayerT<true, false>>(r, binary_schema("BinaryWeightConvolution", true, false));
}

}  // namespace nn::ops
