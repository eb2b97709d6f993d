// QuantizeLinear and DequantizeLinear (ONNX-style): y = saturate(round(x / scale) + zero_point), x' = (y -
// zp) * s.
#include <cmath>
#include <string>

#include "ops/detail/op_common.hpp"
#include "ops/quantization/bcast_index.hpp"

namespace nn::ops {
namespace {

// Shape checks shared by both: scale and zero_point have x's rank with dims 1 or equal to x's.
class LinearQuantBase : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int i, int j) const override { return j == 1; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    for (int k = 1; k < 3; ++k)
      NN_CHECK(broadcastable_to(in[k]->shape(), xs))
          << type() << ": " << (k == 1 ? "scale" : "zero_point") << " shape " << to_string(in[k]->shape())
          << " must have the rank of x " << to_string(xs) << " with dims 1 or equal to x's";
    scale_index_ = BroadcastIndex(xs, in[1]->shape());
    zero_index_ = BroadcastIndex(xs, in[2]->shape());
    out[0]->reshape(xs, true);
  }
  // dx = dy / scale (quantize, straight-through) or dy * scale (dequantize); none for scale/zero_point.
  void backward_scaled(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                       const std::vector<bool>& accum, bool divide) {
    NN_CHECK(!prop[1] && !prop[2]) << type() << ": backward w.r.t. scale or zero_point is not supported";
    if (!prop[0]) return;
    const float* s = in_data(in[1]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    for (int64_t i = 0; i < in[0]->size(); ++i) {
      const float sc = s[scale_index_(i)];
      store_grad(dx, i, divide ? dy[i] / sc : dy[i] * sc, accum[0]);
    }
  }
  BroadcastIndex scale_index_, zero_index_;
};

class QuantizeLinear : public LinearQuantBase {
 public:
  using LinearQuantBase::LinearQuantBase;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    LinearQuantBase::setup_impl(in, out);
    round_mode_ = attrs_.get_string("round_mode");
    NN_CHECK(round_mode_ == "HALF_AWAY_FROM_ZERO" || round_mode_ == "HALF_TO_EVEN")
        << "QuantizeLinear: round_mode must be HALF_AWAY_FROM_ZERO or HALF_TO_EVEN, got '" << round_mode_ << "'";
    const bool narrow = attrs_.get_bool("narrow_range");
    const int64_t dtype = attrs_.get_int("dtype");
    // nnabla dtype numbers (numpy's): 1 = int8, 2 = uint8.
    NN_CHECK(dtype == 1 || dtype == 2) << "QuantizeLinear: dtype must be 1 (int8) or 2 (uint8), got " << dtype;
    min_ = dtype == 1 ? (narrow ? -127.f : -128.f) : (narrow ? 1.f : 0.f);
    max_ = dtype == 1 ? 127.f : 255.f;
  }
  float round(float v) const {
    const float t = std::round(v);
    if (round_mode_ == "HALF_TO_EVEN" && std::fabs(v - t) == 0.5f) return std::round(v * 0.5f) * 2;
    return t;
  }
  float saturate(float v) const { return v < min_ ? min_ : v > max_ ? max_ : v; }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const float* s = in_data(in[1]);
    const float* z = in_data(in[2]);
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < in[0]->size(); ++i) {
      const float zero = saturate(round(z[zero_index_(i)]));
      y[i] = saturate(round(x[i] / s[scale_index_(i)]) + zero);
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    backward_scaled(in, out, prop, accum, true);
  }

 private:
  std::string round_mode_;
  float min_ = -128, max_ = 127;
};

class DequantizeLinear : public LinearQuantBase {
 public:
  using LinearQuantBase::LinearQuantBase;

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const float* s = in_data(in[1]);
    const float* z = in_data(in[2]);
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < in[0]->size(); ++i) y[i] = (x[i] - z[zero_index_(i)]) * s[scale_index_(i)];
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    backward_scaled(in, out, prop, accum, false);
  }
};

}  // namespace

void register_quantize_linear(OpRegistry& r) {
  register_cpu<QuantizeLinear>(
      r, SchemaBuilder("QuantizeLinear", "Quantization Neural Network Layers")
             .doc("saturate(round(x / scale) + zero_point) to int8 or uint8 range")
             .in("x")
             .in("scale")
             .in("zero_point")
             .arg("round_mode", AttrType::kString, AttrValue(std::string("HALF_AWAY_FROM_ZERO")))
             .arg("narrow_range", AttrType::kBool, AttrValue(false))
             .arg("dtype", AttrType::kInt, AttrValue(int64_t(1)))
             .out("y")
             .build());
}
void register_dequantize_linear(OpRegistry& r) {
  register_cpu<DequantizeLinear>(r, SchemaBuilder("DequantizeLinear", "Quantization Neural Network Layers")
                                        .doc("(x - zero_point) * scale")
                                        .in("x")
                                        .in("scale")
                                        .in("zero_point")
                                        .out("y")
                                        .build());
}

}  // namespace nn::ops
