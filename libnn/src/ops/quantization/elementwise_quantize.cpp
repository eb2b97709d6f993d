// FixedPointQuantize, Pow2Quantize and Prune: elementwise quantizers with straight-through gradients.
#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// Shared shape handling and straight-through backward: dx = c(x) * dy, c(x) in {0, 1}.
class SteQuantizer : public Function {
 public:
  using Function::Function;

 protected:
  // Whether the gradient passes at x (used when ste_fine_grained is true).
  virtual bool passes(float x) const { return true; }
  virtual bool fine_grained() const { return false; }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* x = in_data(in[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const bool fine = fine_grained();
    for (int64_t i = 0; i < in[0]->size(); ++i) {
      const float g = (!fine || passes(x[i])) ? dy[i] : 0.f;
      store_grad(dx, i, g, accum[0]);
    }
  }
};

// Uniform quantization with step delta and n bits (one of them the sign when sign=true).
class FixedPointQuantize : public SteQuantizer {
 public:
  using SteQuantizer::SteQuantizer;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const int64_t n = attrs_.get_int("n");
    delta_ = float(attrs_.get_float("delta"));
    const bool sign = attrs_.get_bool("sign");
    NN_CHECK(n > 0 && delta_ > 0) << "FixedPointQuantize: n (" << n << ") and delta (" << delta_
                                  << ") must be positive";
    const int64_t bits = sign ? n - 1 : n;
    NN_CHECK(bits > 0) << "FixedPointQuantize: n=" << n << " leaves no bits besides the sign";
    max_ = float((std::pow(2.0, double(bits)) - 1) * delta_);
    min_ = sign ? -max_ : 0.f;
    out[0]->reshape(in[0]->shape(), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < in[0]->size(); ++i) {
      if (x[i] > max_) {
        y[i] = max_;
      } else if (x[i] < min_) {
        y[i] = min_;
      } else {
        const float q = float(int64_t(std::fabs(x[i]) / delta_ + 0.5f)) * delta_;
        y[i] = x[i] < 0 ? -q : q;
      }
    }
  }
  bool fine_grained() const override { return attrs_.get_bool("ste_fine_grained"); }
  bool passes(float x) const override { return x <= max_ && x >= min_; }

 private:
  float delta_ = 0, max_ = 0, min_ = 0;
};

// Power-of-two quantization: |x| -> 2^round(log2|x|) within [2^(m - 2^bits + 1), 2^m].
class Pow2Quantize : public SteQuantizer {
 public:
  using SteQuantizer::SteQuantizer;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const int64_t n = attrs_.get_int("n"), m = attrs_.get_int("m");
    sign_ = attrs_.get_bool("sign");
    with_zero_ = attrs_.get_bool("with_zero");
    NN_CHECK(n > 0) << "Pow2Quantize: n must be positive, got " << n;
    int64_t bits = sign_ ? n - 1 : n;
    bits = with_zero_ ? bits - 1 : bits;
    NN_CHECK(bits > 0) << "Pow2Quantize: n=" << n << " leaves no bits besides sign and zero";
    NN_CHECK(bits < 62) << "Pow2Quantize: n=" << n << " is too large";
    p_max_ = float(std::pow(2.0, double(m)));
    p_min_ = float(std::pow(2.0, double(m - ((int64_t(1) << bits) - 1))));
    prune_threshold_ = float(p_min_ * std::pow(2.0, -0.5));
    out[0]->reshape(in[0]->shape(), true);
  }
  float level(float x) const { return float(std::pow(2.0, std::round(std::log2(std::fabs(x))))); }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < in[0]->size(); ++i) {
      const float ax = std::fabs(x[i]);
      float q = level(x[i]);
      if (q > p_max_)
        q = p_max_;
      else if (q < p_min_)
        q = (with_zero_ && ax < prune_threshold_) ? 0.f : p_min_;
      const bool negative = x[i] < 0;
      if (sign_)
        y[i] = negative ? -q : q;
      else
        y[i] = negative ? (with_zero_ ? 0.f : p_min_) : q;
    }
  }
  bool fine_grained() const override { return attrs_.get_bool("ste_fine_grained"); }
  // As upstream: the gradient stops where the unclipped level exceeds 2^m, and for negatives when unsigned.
  bool passes(float x) const override { return !(level(x) > p_max_) && (sign_ || !(x < 0)); }

 private:
  bool sign_ = true, with_zero_ = true;
  float p_max_ = 0, p_min_ = 0, prune_threshold_ = 0;
};

// Zeroes the elements whose magnitude is below the rate-quantile of |x|; the gradient passes through.
class Prune : public SteQuantizer {
 public:
  using SteQuantizer::SteQuantizer;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    rate_ = attrs_.get_float("rate");
    NN_CHECK(rate_ >= 0 && rate_ <= 1) << "Prune: rate " << rate_ << " must be in [0, 1]";
    out[0]->reshape(in[0]->shape(), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const int64_t n = in[0]->size();
    if (n == 0) return;
    std::vector<float> mags(x, x + n);
    for (auto& v : mags) v = std::fabs(v);
    const int64_t k = int64_t(float(n - 1) * float(rate_));
    std::nth_element(mags.begin(), mags.begin() + k, mags.end());
    const float threshold = mags[k] + (rate_ == 1.0 ? 1.f : 0.f);
    for (int64_t i = 0; i < n; ++i) y[i] = std::fabs(x[i]) < threshold ? 0.f : x[i];
  }

 private:
  double rate_ = 0.9;
};

}  // namespace

void register_fixed_point_quantize(OpRegistry& r) {
  register_cpu<FixedPointQuantize>(r, SchemaBuilder("FixedPointQuantize", "Quantization Neural Network Layers")
                                          .doc("uniform fixed-point quantization with a straight-through gradient")
                                          .in("x")
                                          .arg("sign", AttrType::kBool, AttrValue(true))
                                          .arg("n", AttrType::kInt, AttrValue(int64_t(8)))
                                          .arg("delta", AttrType::kFloat, AttrValue(0.0625))
                                          .arg("ste_fine_grained", AttrType::kBool, AttrValue(true))
                                          .out("y")
                                          .build());
}
void register_pow2_quantize(OpRegistry& r) {
  register_cpu<Pow2Quantize>(r, SchemaBuilder("Pow2Quantize", "Quantization Neural Network Layers")
                                    .doc("power-of-two quantization with a straight-through gradient")
                                    .in("x")
                                    .arg("sign", AttrType::kBool, AttrValue(true))
                                    .arg("with_zero", AttrType::kBool, AttrValue(true))
                                    .arg("n", AttrType::kInt, AttrValue(int64_t(8)))
                                    .arg("m", AttrType::kInt, AttrValue(int64_t(1)))
                                    .arg("ste_fine_grained", AttrType::kBool, AttrValue(true))
                                    .out("y")
                                    .build());
}
void register_prune(OpRegistry& r) {
  register_cpu<Prune>(r, SchemaBuilder("Prune", "Quantization Neural Network Layers")
                             .doc("zeroes the smallest-magnitude fraction rate of the elements")
                             .in("x")
                             .arg("rate", AttrType::kFloat, AttrValue(0.9))
                             .out("y")
                             .build());
}

}  // namespace nn::ops
