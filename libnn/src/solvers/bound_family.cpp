// Bounded and trust-ratio solvers: AdaBound, AMSBound, Lamb, Lion (nnabla's rules and defaults).
#include <algorithm>
#include <cmath>
#include <vector>

#include "solvers/solver_common.hpp"

namespace nn::solvers {
namespace {

// AdaBound / AMSBound: Adam's per-element step alpha_t / (sqrt(v) + eps) clipped to
// [final_lr (1 - 1 / (gamma t + 1)), upper], final_lr scaled by alpha / alpha0; x -= step * m.
class BoundedAdam : public AdamLike {
 protected:
  BoundedAdam(const Attrs& p, bool amsbound)
      : AdamLike(p, 1e-3),
        final_lr_(float(p.get_float("final_lr", 0.1))),
        gamma_(float(p.get_float("gamma", 0.001))),
        amsbound_(amsbound),
        bias_correction_(amsbound ? p.get_bool("bias_correction", false) : true) {}

  Attrs hyper_parameters() const override {
    Attrs a = adam_parameters();
    a.set("final_lr", double(final_lr_));
    a.set("gamma", double(gamma_));
    if (amsbound_) a.set("bias_correction", bias_correction_);
    return a;
  }
  void update_impl(Entry& e) override {
    const uint32_t t = current_step(e.state);
    const double correction = bias_correction_ ? adam_bias_correction(beta1_, beta2_, t) : 1.0;
    const float alpha_t = float(alpha_ * correction);
    const float final_lr = final_lr_ * (init_alpha_ != 0.0f ? alpha_ / init_alpha_ : 1.0f);
    const float tf = float(t);
    const float lower = final_lr * (1 - 1 / (gamma_ * tf + 1));
    // AdaBound: final_lr (1 + 1 / (gamma t)). AMSBound keeps upstream nnabla's operator precedence,
    // final_lr (1 + t / gamma), so results match nnabla.
    const float upper = amsbound_ ? final_lr * (1 + 1 / gamma_ * tf) : final_lr * (1 + 1 / (gamma_ * tf));
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* m = state_data(e.state, amsbound_ ? "m" : "mean");
    float* v = state_data(e.state, amsbound_ ? "v" : "var");
    float* v_hat = amsbound_ ? state_data(e.state, "v_hat") : nullptr;
    const float beta1 = beta1_, beta2 = beta2_, eps = eps_;
    const bool amsbound = amsbound_;
    for_each_element(e.var->size(), [&](int64_t i) {
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
      float denom_v = v[i];
      if (amsbound) {
        v_hat[i] = std::max(v_hat[i], v[i]);
        denom_v = v_hat[i];
      }
      const float eta = std::min(upper, std::max(alpha_t / (std::sqrt(denom_v) + eps), lower));
      x[i] = x[i] - eta * m[i];
    });
  }

  float final_lr_, gamma_;
  bool amsbound_, bias_correction_;
};

class AdaBound : public BoundedAdam {
 public:
  explicit AdaBound(const Attrs& p) : BoundedAdam(p, false) {}
  std::string type() const override { return "AdaBound"; }
  std::vector<std::string> state_names() const override { return {"mean", "var"}; }
};

class AMSBound : public BoundedAdam {
 public:
  explicit AMSBound(const Attrs& p) : BoundedAdam(p, true) {}
  std::string type() const override { return "AMSBound"; }
  std::vector<std::string> state_names() const override { return {"m", "v", "v_hat"}; }
};

// Lamb: r = (m / c1) / (sqrt(v / c2) + eps) + wd x (c1, c2 the bias corrections when bias_correction, else
// 1); ratio = clip(||x||, gamma_l, gamma_u) / ||r|| (1 when ||r|| <= eps); x -= eta ratio r. wd is fused.
class Lamb : public Solver {
 public:
  explicit Lamb(const Attrs& p)
      : Solver(true, 0.0),
        eta_(float(p.get_float("eta", 1e-3))),
        beta1_(float(p.get_float("beta1", 0.9))),
        beta2_(float(p.get_float("beta2", 0.999))),
        gamma_l_(float(p.get_float("gamma_l", 0.0))),
        gamma_u_(float(p.get_float("gamma_u", 10.0))),
        eps_(float(p.get_float("eps", 1e-6))),
        bias_correction_(p.get_bool("bias_correction", false)) {}
  std::string type() const override { return "Lamb"; }
  double learning_rate() const override { return eta_; }
  void set_learning_rate(double lr) override { eta_ = float(lr); }
  std::vector<std::string> state_names() const override { return {"mean", "var"}; }

 protected:
  Attrs hyper_parameters() const override {
    return {{"eta", double(eta_)},
            {"beta1", double(beta1_)},
            {"beta2", double(beta2_)},
            {"gamma_l", double(gamma_l_)},
            {"gamma_u", double(gamma_u_)},
            {"eps", double(eps_)},
            {"bias_correction", bias_correction_}};
  }
  void update_impl(Entry& e) override {
    const uint32_t t = current_step(e.state);
    const float c1 = bias_correction_ ? float(1.0 - std::pow(double(beta1_), double(t))) : 1.0f;
    const float c2 = bias_correction_ ? float(1.0 - std::pow(double(beta2_), double(t))) : 1.0f;
    const int64_t n = e.var->size();
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* m = state_data(e.state, "mean");
    float* v = state_data(e.state, "var");
    std::vector<float> r(static_cast<size_t>(n));
    float* rp = r.data();
    const float beta1 = beta1_, beta2 = beta2_, eps = eps_, decay = float(fused_decay_rate());
    for_each_element(n, [&](int64_t i) {
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
      rp[i] = (m[i] / c1) / (std::sqrt(v[i] / c2) + eps) + decay * x[i];
    });
    const double r_norm = std::sqrt(sum_of_squares(rp, n));
    double x_norm = std::sqrt(sum_of_squares(x, n));
    if (x_norm < gamma_l_) x_norm = gamma_l_;
    if (x_norm > gamma_u_) x_norm = gamma_u_;
    const float step = float(eta_ * (r_norm > eps_ ? x_norm / r_norm : 1.0));
    for_each_element(n, [&](int64_t i) { x[i] -= step * rp[i]; });
  }

 private:
  float eta_, beta1_, beta2_, gamma_l_, gamma_u_, eps_;
  bool bias_correction_;
};

// Lion: u = sign(b1 m + (1 - b1) g); m = b2 m + (1 - b2) g; x -= lr (u + wd x). wd is fused.
class Lion : public Solver {
 public:
  explicit Lion(const Attrs& p)
      : Solver(true, 0.0),
        lr_(float(p.get_float("lr", 1e-4))),
        beta1_(float(p.get_float("beta1", 0.9))),
        beta2_(float(p.get_float("beta2", 0.99))) {}
  std::string type() const override { return "Lion"; }
  double learning_rate() const override { return lr_; }
  void set_learning_rate(double lr) override { lr_ = float(lr); }
  std::vector<std::string> state_names() const override { return {"m"}; }

 protected:
  Attrs hyper_parameters() const override {
    return {{"lr", double(lr_)}, {"beta1", double(beta1_)}, {"beta2", double(beta2_)}};
  }
  void update_impl(Entry& e) override {
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* m = state_data(e.state, "m");
    const float lr = lr_, beta1 = beta1_, beta2 = beta2_, decay = float(fused_decay_rate());
    for_each_element(e.var->size(), [&](int64_t i) {
      // nnabla's lerp(g, m, b) = g + b (m - g).
      const float mixed = g[i] + beta1 * (m[i] - g[i]);
      const float u = float((mixed > 0.0f) - (mixed < 0.0f));
      m[i] = g[i] + beta2 * (m[i] - g[i]);
      x[i] -= lr * (u + decay * x[i]);
    });
  }

 private:
  float lr_, beta1_, beta2_;
};

}  // namespace

std::unique_ptr<Solver> make_adabound(const Attrs& p) { return std::make_unique<AdaBound>(p); }
std::unique_ptr<Solver> make_amsbound(const Attrs& p) { return std::make_unique<AMSBound>(p); }
std::unique_ptr<Solver> make_lamb(const Attrs& p) { return std::make_unique<Lamb>(p); }
std::unique_ptr<Solver> make_lion(const Attrs& p) { return std::make_unique<Lion>(p); }

}  // namespace nn::solvers
