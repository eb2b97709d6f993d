// BatchNormalization (nnabla semantics): batch statistics with running-stat update, or running statistics.
#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/detail/channels_last_view.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/normalization/batch_norm_args.hpp"

namespace nn::ops {
namespace {

// Inputs: x, beta (absent with no_bias), gamma (absent with no_scale), mean, variance.
// Outputs: y, optionally batch mean and batch variance (batch_stat only).
// The array is viewed as (outer, channel, inner) around the normalized axis.
class BatchNormalization : public Function {
 public:
  BatchNormalization(const OpSchema& s, const Context& c, const Attrs& a) : Function(s, c, a), args_(attrs_) {}

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const size_t expected = 3 + (args_.no_scale ? 0 : 1) + (args_.no_bias ? 0 : 1);
    NN_CHECK(in.size() == expected) << "BatchNormalization: expects " << expected << " inputs (no_scale "
                                    << args_.no_scale << ", no_bias " << args_.no_bias << "), got " << in.size();
    NN_CHECK(out.size() == 1 || (args_.batch_stat && out.size() == 3))
        << "BatchNormalization: outputs must be y, or y, batch mean and batch variance (batch_stat only); "
           "got "
        << out.size();
    beta_ = args_.no_bias ? -1 : 1;
    gamma_ = args_.no_scale ? -1 : (args_.no_bias ? 1 : 2);
    mean_ = int(in.size()) - 2;
    var_ = int(in.size()) - 1;
    const Shape& xs = in[0]->shape();
    const int axis = args_.axis(xs);
    outer_ = shape_size(xs, 0, axis);
    channels_ = xs[axis];
    inner_ = shape_size(xs, axis + 1, xs.size());
    Shape ps(xs.size(), 1);
    ps[axis] = channels_;
    const char* names[] = {"x", "beta", "gamma", "mean", "variance"};
    for (int i = 1; i < int(in.size()); ++i) {
      const char* name = i == beta_ ? names[1] : i == gamma_ ? names[2] : i == mean_ ? names[3] : names[4];
      NN_CHECK(in[i]->shape() == ps) << "BatchNormalization: " << name << " (input " << i << ") has shape "
                                     << to_string(in[i]->shape()) << ", expected " << to_string(ps) << " for x "
                                     << to_string(xs);
    }
    out[0]->reshape(xs, true);
    for (size_t o = 1; o < out.size(); ++o) out[o]->reshape(ps, true);
    batch_mean_.assign(size_t(channels_), 0.f);
    batch_var_.assign(size_t(channels_), 0.f);
  }

  // Calls f(first, length) for the contiguous inner blocks of channel c.
  template <class F>
  void for_channel_blocks(int64_t c, F&& f) const {
    for (int64_t o = 0; o < outer_; ++o) f((o * channels_ + c) * inner_, inner_);
  }
  // Calls f(c) for every channel, on all threads for large arrays.
  template <class F>
  void for_each_channel(F&& f) const {
    parallel_ranges(channels_, outer_ * channels_ * inner_, [&](int64_t c0, int64_t c1, int) {
      for (int64_t c = c0; c < c1; ++c) f(c);
    });
  }
  // Calls f(first, length, c) for every (outer, channel) block, on all threads for large arrays.
  template <class F>
  void for_each_block(F&& f) const {
    parallel_ranges(outer_ * channels_, outer_ * channels_ * inner_, [&](int64_t b0, int64_t b1, int) {
      for (int64_t b = b0; b < b1; ++b) f(b * inner_, inner_, b % channels_);
    });
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* beta = beta_ < 0 ? nullptr : in_data(in[beta_]);
    const float* gamma = gamma_ < 0 ? nullptr : in_data(in[gamma_]);
    if (!args_.batch_stat) {  // running statistics: x is read where it is held (forward_channels_last)
      const std::vector<float> scale_shift = running_scale_shift(in, gamma, beta);
      const float* scale = scale_shift.data();
      const float* shift = scale + channels_;
      if (forward_channels_last(in[0], out[0], scale, shift)) return;
      scale_blocks(in_data(in[0]), out_data(out[0]), scale, shift);
      return;
    }
    const float* x = in_data(in[0]);
    compute_batch_stats(x);
    float* rm = in[mean_]->data()->cast<float>();
    float* rv = in[var_]->data()->cast<float>();
    const double n = double(outer_ * inner_);
    const double unbias = n > 1 ? n / (n - 1) : 1.0;  // running variance uses the unbiased estimate
    for (int64_t c = 0; c < channels_; ++c) {
      rm[c] = args_.decay_rate * rm[c] + (1 - args_.decay_rate) * batch_mean_[c];
      rv[c] = args_.decay_rate * rv[c] + (1 - args_.decay_rate) * float(batch_var_[c] * unbias);
    }
    if (out.size() == 3) {
      std::copy(batch_mean_.begin(), batch_mean_.end(), out_data(out[1]));
      std::copy(batch_var_.begin(), batch_var_.end(), out_data(out[2]));
    }
    std::vector<float> scale_shift(size_t(2 * channels_));
    fill_scale_shift(batch_mean_.data(), batch_var_.data(), gamma, beta, scale_shift.data(),
                     scale_shift.data() + channels_);
    scale_blocks(x, out_data(out[0]), scale_shift.data(), scale_shift.data() + channels_);
  }

  // scale = gamma / sqrt(var + eps), shift = beta - mean * scale, per channel.
  void fill_scale_shift(const float* mean, const float* var, const float* gamma, const float* beta, float* scale,
                        float* shift) const {
    for (int64_t c = 0; c < channels_; ++c) {
      scale[c] = (gamma ? gamma[c] : 1.f) / std::sqrt(var[c] + args_.eps);
      shift[c] = (beta ? beta[c] : 0.f) - mean[c] * scale[c];
    }
  }
  // The running statistics' scale then shift, channels_ values each.
  std::vector<float> running_scale_shift(const Variables& in, const float* gamma, const float* beta) const {
    std::vector<float> scale_shift(size_t(2 * channels_));
    fill_scale_shift(in_data(in[mean_]), in_data(in[var_]), gamma, beta, scale_shift.data(),
                     scale_shift.data() + channels_);
    return scale_shift;
  }
  // y = x * scale[c] + shift[c] over the (outer, channel, inner) blocks.
  void scale_blocks(const float* x, float* y, const float* scale, const float* shift) const {
    for_each_block([&](int64_t first, int64_t len, int64_t c) {
      const float sc = scale[c], sh = shift[c];
      const float* xb = x + first;
      float* yb = y + first;
#pragma omp simd
      for (int64_t k = 0; k < len; ++k) yb[k] = xb[k] * sc + sh;
    });
  }

  // Running statistics over channels of an input a convolution left channels-last: each pixel's channels scaled
  // there, the output channels-last too, so DenseNet's concatenation -> BatchNormalization -> ReLU -> convolution
  // chains stay in that layout (each BatchNormalization otherwise cost two reorders of its map).
  bool forward_channels_last(Variable* x, Variable* y, const float* scale, const float* shift) {
    if (inner_ == 1 || outer_ != x->shape()[0] || !held_channels_last(*x->data())) return false;
    const float* xl = static_cast<const float*>(x->data()->get_raw(channels_last_key()));
    float* yl = static_cast<float*>(y->data()->cast_raw(channels_last_key(), true));
    const int64_t pixels = outer_ * inner_, c = channels_;
    parallel_ranges(pixels, pixels * c, [&](int64_t begin, int64_t end, int) {
      for (int64_t q = begin; q < end; ++q) {
        const float* xp = xl + q * c;
        float* yp = yl + q * c;
#pragma omp simd
        for (int64_t k = 0; k < c; ++k) yp[k] = xp[k] * scale[k] + shift[k];
      }
    });
    return true;
  }

  void compute_batch_stats(const float* x) {
    const double n = double(outer_ * inner_);
    for_each_channel([&](int64_t c) {
      double sum = 0, sq = 0;
      for_channel_blocks(c, [&](int64_t first, int64_t len) {
        const float* xb = x + first;
        float s = 0.f;
#pragma omp simd reduction(+ : s)
        for (int64_t k = 0; k < len; ++k) s += xb[k];
        sum += s;
      });
      const double m = n > 0 ? sum / n : 0.0;
      const float mf = float(m);
      for_channel_blocks(c, [&](int64_t first, int64_t len) {
        const float* xb = x + first;
        float s = 0.f;
#pragma omp simd reduction(+ : s)
        for (int64_t k = 0; k < len; ++k) s += (xb[k] - mf) * (xb[k] - mf);
        sq += s;
      });
      const double rounding = m - double(mf);  // the float mean's offset from the exact one
      batch_mean_[c] = float(m);
      batch_var_[c] = float(n > 0 ? std::max(0.0, sq / n - rounding * rounding) : 0.0);
    });
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* x = in_data(in[0]);
    const float* dy = out_grad(out[0]);
    const float* gamma = gamma_ < 0 ? nullptr : in_data(in[gamma_]);
    const float* mean = args_.batch_stat ? batch_mean_.data() : in_data(in[mean_]);
    const float* var = args_.batch_stat ? batch_var_.data() : in_data(in[var_]);
    const float* dmean_out = out.size() == 3 ? out_grad(out[1]) : nullptr;
    const float* dvar_out = out.size() == 3 ? out_grad(out[2]) : nullptr;
    const double n = double(outer_ * inner_);
    float* dx = prop[0] ? in_grad(in[0], accum[0]) : nullptr;
    float* dbeta = beta_ >= 0 && prop[beta_] ? in_grad(in[beta_], accum[beta_]) : nullptr;
    float* dgamma = gamma_ >= 0 && prop[gamma_] ? in_grad(in[gamma_], accum[gamma_]) : nullptr;
    float* drm = prop[mean_] ? in_grad(in[mean_], accum[mean_]) : nullptr;
    float* drv = prop[var_] ? in_grad(in[var_], accum[var_]) : nullptr;
    // Per channel: sum(dy) and sum(dy * (x - mean)).
    std::vector<double> sum_dy(static_cast<size_t>(channels_)), sum_dy_xc(static_cast<size_t>(channels_));
    for_each_channel([&](int64_t c) {
      const float m = mean[c];
      double s_dy = 0, s_dy_xc = 0;
      for_channel_blocks(c, [&](int64_t first, int64_t len) {
        const float* xb = x + first;
        const float* dyb = dy + first;
        float a = 0.f, b = 0.f;
#pragma omp simd reduction(+ : a, b)
        for (int64_t k = 0; k < len; ++k) {
          a += dyb[k];
          b += dyb[k] * (xb[k] - m);
        }
        s_dy += a;
        s_dy_xc += b;
      });
      sum_dy[c] = s_dy;
      sum_dy_xc[c] = s_dy_xc;
    });
    // dx = dy * k_dy + (x - mean) * k_xc + k_const per channel.
    std::vector<float> k_dy(static_cast<size_t>(channels_)), k_xc(static_cast<size_t>(channels_)),
        k_const(static_cast<size_t>(channels_));
    for (int64_t c = 0; c < channels_; ++c) {
      const double g = gamma ? gamma[c] : 1.0, v = double(var[c]) + args_.eps;
      const double inv_std = 1.0 / std::sqrt(v);
      if (dbeta) store_grad(dbeta, c, float(sum_dy[c]), accum[beta_]);
      if (dgamma) store_grad(dgamma, c, float(sum_dy_xc[c] * inv_std), accum[gamma_]);
      k_dy[c] = float(g * inv_std);
      if (args_.batch_stat) {
        // y does not depend on the running statistics.
        if (drm) store_grad(drm, c, 0.f, accum[mean_]);
        if (drv) store_grad(drv, c, 0.f, accum[var_]);
        // Through x_hat = (x - m) / sqrt(v): dvar and dmean, plus gradients arriving at the stat outputs.
        // sum(x - m) is 0 for the batch mean, so dmean has no dvar term.
        const double dvar = -0.5 * g * sum_dy_xc[c] * inv_std / v + (dvar_out ? dvar_out[c] : 0.0);
        const double dmean = -g * sum_dy[c] * inv_std + (dmean_out ? dmean_out[c] : 0.0);
        k_xc[c] = float(dvar * 2.0 / n);
        k_const[c] = float(dmean / n);
      } else {
        if (drm) store_grad(drm, c, float(-g * sum_dy[c] * inv_std), accum[mean_]);
        if (drv) store_grad(drv, c, float(-0.5 * g * sum_dy_xc[c] * inv_std / v), accum[var_]);
        k_xc[c] = k_const[c] = 0.f;
      }
    }
    if (!dx) return;
    const bool acc = accum[0];
    for_each_block([&](int64_t first, int64_t len, int64_t c) {
      const float a = k_dy[c], b = k_xc[c], k = k_const[c], m = mean[c];
      const float* xb = x + first;
      const float* dyb = dy + first;
      float* dxb = dx + first;
      if (acc) {
#pragma omp simd
        for (int64_t i = 0; i < len; ++i) dxb[i] += dyb[i] * a + (xb[i] - m) * b + k;
      } else {
#pragma omp simd
        for (int64_t i = 0; i < len; ++i) dxb[i] = dyb[i] * a + (xb[i] - m) * b + k;
      }
    });
  }

 private:
  const BatchNormArgs args_;
  int beta_ = 1, gamma_ = 2, mean_ = 3, var_ = 4;  // input indices (-1: absent)
  int64_t outer_ = 1, channels_ = 1, inner_ = 1;
  std::vector<float> batch_mean_, batch_var_;
};

}  // namespace

void register_batch_normalization(OpRegistry& r) {
  register_cpu<BatchNormalization>(
      r, SchemaBuilder("BatchNormalization", "Normalization")
             .doc("batch normalization; batch_stat updates the running mean/variance inputs in place")
             .in("x")
             .in_optional("beta", true)
             .in_optional("gamma", true)
             .in("mean")
             .in("variance")
             .arg("axes", AttrType::kInts, AttrValue(std::vector<int64_t>{1}))
             .arg("decay_rate", AttrType::kFloat, AttrValue(0.9))
             .arg("eps", AttrType::kFloat, AttrValue(1e-5))
             .arg("batch_stat", AttrType::kBool, AttrValue(true))
             .arg("no_scale", AttrType::kBool, AttrValue(false))
             .arg("no_bias", AttrType::kBool, AttrValue(false))
             .out("y")
             .build());
}

}  // namespace nn::ops
