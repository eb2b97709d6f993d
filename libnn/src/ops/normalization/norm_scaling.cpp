// NormNormalization (x divided by its p-norm over axes) and WeightNormalization (w scaled to norm g per
// slice along dim).
#include <cmath>

#include "ops/detail/op_common.hpp"
#include "ops/detail/reduce.hpp"

namespace nn::ops {
namespace {

// y = x / n, n = (sum |x|^p + eps)^(1/p) over axes (as upstream's reference; eps only guards zero norms).
class NormNormalization : public Function {
 public:
  NormNormalization(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), p_(attrs_.get_float("p")), eps_(float(attrs_.get_float("eps"))) {}

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(p_ >= 1) << "NormNormalization: p must be >= 1, got " << p_;
    plan_ = make_reduce_plan(in[0]->shape(), attrs_.get_ints("axes", {}), attrs_.has("axes"), true);
    norm_.assign(size_t(plan_.out_size), 0.0);
    out[0]->reshape(in[0]->shape(), true);
  }

  void compute_norms(const float* x) {
    for (int64_t o = 0; o < plan_.out_size; ++o) {
      double s = 0;
      for (int64_t r : plan_.red_offsets) s += std::pow(std::fabs(double(x[plan_.out_offsets[o] + r])), p_);
      norm_[o] = std::pow(s + double(eps_), 1.0 / p_);
    }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    compute_norms(x);
    for (int64_t o = 0; o < plan_.out_size; ++o)
      for (int64_t r : plan_.red_offsets) {
        const int64_t i = plan_.out_offsets[o] + r;
        y[i] = float(x[i] / norm_[o]);
      }
  }

  // dx_j = dy_j / n - (sum_i dy_i x_i) / n^2 * dn/dx_j, dn/dx_j = n^(1-p) |x_j|^(p-1) sign(x_j).
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* x = in_data(in[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    compute_norms(x);
    for (int64_t o = 0; o < plan_.out_size; ++o) {
      const double n = norm_[o];
      double dot = 0;
      for (int64_t r : plan_.red_offsets)
        dot += double(dy[plan_.out_offsets[o] + r]) * x[plan_.out_offsets[o] + r];
      for (int64_t r : plan_.red_offsets) {
        const int64_t i = plan_.out_offsets[o] + r;
        const double xi = x[i];
        const double dn = std::pow(n, 1 - p_) * std::pow(std::fabs(xi), p_ - 1) * (xi > 0 ? 1 : xi < 0 ? -1 : 0);
        store_grad(dx, i, float(dy[i] / n - dot / (n * n) * dn), accum[0]);
      }
    }
  }

 private:
  double p_;
  float eps_;
  ReducePlan plan_;
  std::vector<double> norm_;
};

// w_wn = g_k * w / sqrt(sum w^2 + eps), sums over every axis but dim, k the index along dim.
class WeightNormalization : public Function {
 public:
  WeightNormalization(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), eps_(float(attrs_.get_float("eps"))) {}

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& ws = in[0]->shape();
    const int64_t dim = attrs_.get_int("dim");
    NN_CHECK(dim >= 0 && dim < int64_t(ws.size()))
        << "WeightNormalization: dim " << dim << " is out of range for w " << to_string(ws);
    NN_CHECK(in[1]->shape() == Shape{ws[dim]})
        << "WeightNormalization: g has shape " << to_string(in[1]->shape()) << ", expected (" << ws[dim]
        << ") for w " << to_string(ws) << " and dim " << dim;
    NN_CHECK(eps_ > 0) << "WeightNormalization: eps must be positive, got " << eps_;
    outer_ = shape_size(ws, 0, size_t(dim));
    channels_ = ws[dim];
    inner_ = shape_size(ws, size_t(dim) + 1, ws.size());
    scale_.assign(size_t(channels_), 0.0);
    out[0]->reshape(ws, true);
  }

  template <class F>
  void for_channel(int64_t k, F&& f) const {
    for (int64_t o = 0; o < outer_; ++o)
      for (int64_t i = 0; i < inner_; ++i) f((o * channels_ + k) * inner_ + i);
  }

  void compute_scales(const float* w) {
    for (int64_t k = 0; k < channels_; ++k) {
      double s = 0;
      for_channel(k, [&](int64_t i) { s += double(w[i]) * w[i]; });
      scale_[k] = 1.0 / std::sqrt(s + double(eps_));
    }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* w = in_data(in[0]);
    const float* g = in_data(in[1]);
    float* y = out_data(out[0]);
    compute_scales(w);
    for (int64_t k = 0; k < channels_; ++k) {
      const double s = scale_[k] * g[k];
      for_channel(k, [&](int64_t i) { y[i] = float(w[i] * s); });
    }
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* w = in_data(in[0]);
    const float* g = in_data(in[1]);
    const float* dy = out_grad(out[0]);
    compute_scales(w);
    float* dw = prop[0] ? in_grad(in[0], accum[0]) : nullptr;
    float* dg = prop[1] ? in_grad(in[1], accum[1]) : nullptr;
    for (int64_t k = 0; k < channels_; ++k) {
      double dot = 0;  // sum dy * w
      for_channel(k, [&](int64_t i) { dot += double(dy[i]) * w[i]; });
      const double s = scale_[k];
      if (dg) store_grad(dg, k, float(dot * s), accum[1]);
      if (dw)
        for_channel(
            k, [&](int64_t i) { store_grad(dw, i, float(g[k] * s * (dy[i] - s * s * w[i] * dot)), accum[0]); });
    }
  }

 private:
  float eps_;
  int64_t outer_ = 1, channels_ = 1, inner_ = 1;
  std::vector<double> scale_;
};

}  // namespace

void register_norm_normalization(OpRegistry& r) {
  register_cpu<NormNormalization>(r, SchemaBuilder("NormNormalization", "Normalization")
                                         .doc("x divided by its p-norm over axes")
                                         .in("x")
                                         .arg("p", AttrType::kFloat, AttrValue(2.0))
                                         .arg("axes", AttrType::kInts, std::nullopt, "all")
                                         .arg("eps", AttrType::kFloat, AttrValue(1e-12))
                                         .out("y")
                                         .build());
}

void register_weight_normalization(OpRegistry& r) {
  register_cpu<WeightNormalization>(r, SchemaBuilder("WeightNormalization", "Normalization")
                                           .doc("w rescaled to norm g per slice along dim")
                                           .in_param("w")
                                           .in_param("g")
                                           .arg("dim", AttrType::kInt, AttrValue(int64_t(0)))
                                           .arg("eps", AttrType::kFloat, AttrValue(1e-12))
                                           .out("w_wn")
                                           .build());
}

}  // namespace nn::ops
