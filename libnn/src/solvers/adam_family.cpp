// Adam-style solvers: Adam, AdamW, Adamax, AMSGRAD, AdaBelief (nnabla's rules, bias corrections, defaults).
#include <algorithm>
#include <cmath>

#include "solvers/solver_common.hpp"

namespace nn::solvers {
namespace {

// m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2; x -= alpha sqrt(1 - b2^t) / (1 - b1^t) m / (sqrt(v) + eps)
class Adam : public AdamLike {
 public:
  explicit Adam(const Attrs& p) : AdamLike(p, 1e-3) {}
  std::string type() const override { return "Adam"; }
  std::vector<std::string> state_names() const override { return {"mean", "var"}; }

 protected:
  Attrs hyper_parameters() const override { return adam_parameters(); }
  void update_impl(Entry& e) override {
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* m = state_data(e.state, "mean");
    float* v = state_data(e.state, "var");
    const float alpha_t = float(alpha_ * adam_bias_correction(beta1_, beta2_, current_step(e.state)));
    const float beta1 = beta1_, beta2 = beta2_, eps = eps_;
    for_each_element(e.var->size(), [&](int64_t i) {
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
      x[i] = x[i] - alpha_t * m[i] / (std::sqrt(v[i]) + eps);
    });
  }
};

// Adam plus decoupled weight decay: x = x - (Adam step) - (alpha / alpha0) wd x. The decay rate is fused:
// weight_decay(r) sets it for the next update, else the constructor's wd is used.
class AdamW : public AdamLike {
 public:
  explicit AdamW(const Attrs& p)
      : AdamLike(p, 1e-3, true, p.get_float("wd", 1e-4)), wd_(float(p.get_float("wd", 1e-4))) {}
  std::string type() const override { return "AdamW"; }
  std::vector<std::string> state_names() const override { return {"mean", "var"}; }

 protected:
  Attrs hyper_parameters() const override {
    Attrs a = adam_parameters();
    a.set("wd", double(wd_));
    return a;
  }
  void update_impl(Entry& e) override {
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* m = state_data(e.state, "mean");
    float* v = state_data(e.state, "var");
    const float alpha_t = float(alpha_ * adam_bias_correction(beta1_, beta2_, current_step(e.state)));
    const float eta_t = init_alpha_ != 0.0f ? alpha_ / init_alpha_ : 1.0f;
    const float decay = float(eta_t * fused_decay_rate());
    const float beta1 = beta1_, beta2 = beta2_, eps = eps_;
    for_each_element(e.var->size(), [&](int64_t i) {
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
      x[i] = x[i] - alpha_t * m[i] / (std::sqrt(v[i]) + eps) - decay * x[i];
    });
  }

 private:
  float wd_;
};

// m = b1 m + (1 - b1) g; u = max(b2 u, |g|); x -= alpha / (1 - b1^t) m / (u + eps)
class Adamax : public AdamLike {
 public:
  explicit Adamax(const Attrs& p) : AdamLike(p, 2e-3) {}
  std::string type() const override { return "Adamax"; }
  std::vector<std::string> state_names() const override { return {"m", "u"}; }

 protected:
  Attrs hyper_parameters() const override { return adam_parameters(); }
  void update_impl(Entry& e) override {
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* m = state_data(e.state, "m");
    float* u = state_data(e.state, "u");
    const float alpha_t = float(alpha_ / (1.0 - std::pow(double(beta1_), double(current_step(e.state)))));
    const float beta1 = beta1_, beta2 = beta2_, eps = eps_;
    for_each_element(e.var->size(), [&](int64_t i) {
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      u[i] = std::max(beta2 * u[i], std::abs(g[i]));
      x[i] = x[i] - alpha_t * m[i] / (u[i] + eps);
    });
  }
};

// Adam with v_hat = max(v_hat, v) in the denominator; the bias correction only when bias_correction.
class AMSGRAD : public AdamLike {
 public:
  explicit AMSGRAD(const Attrs& p) : AdamLike(p, 1e-3), bias_correction_(p.get_bool("bias_correction", false)) {}
  std::string type() const override { return "AMSGRAD"; }
  std::vector<std::string> state_names() const override { return {"m", "v", "v_hat"}; }

 protected:
  Attrs hyper_parameters() const override {
    Attrs a = adam_parameters();
    a.set("bias_correction", bias_correction_);
    return a;
  }
  void update_impl(Entry& e) override {
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* m = state_data(e.state, "m");
    float* v = state_data(e.state, "v");
    float* v_hat = state_data(e.state, "v_hat");
    const double correction = bias_correction_ ? adam_bias_correction(beta1_, beta2_, current_step(e.state)) : 1.0;
    const float alpha_t = float(alpha_ * correction);
    const float beta1 = beta1_, beta2 = beta2_, eps = eps_;
    for_each_element(e.var->size(), [&](int64_t i) {
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
      v_hat[i] = std::max(v_hat[i], v[i]);
      x[i] = x[i] - alpha_t * m[i] / (std::sqrt(v_hat[i]) + eps);
    });
  }

 private:
  bool bias_correction_;
};

// AdaBelief: s tracks (g - m)^2. Options: amsgrad (s_max), weight_decouple (x -= x wd [* alpha unless
// fixed_decay]), rectify (RAdam's r_t; plain momentum SGD step while rho_t <= 4).
class AdaBelief : public AdamLike {
 public:
  explicit AdaBelief(const Attrs& p)
      : AdamLike(p, 1e-3),
        wd_(float(p.get_float("wd", 0.0))),
        amsgrad_(p.get_bool("amsgrad", false)),
        weight_decouple_(p.get_bool("weight_decouple", false)),
        fixed_decay_(p.get_bool("fixed_decay", false)),
        rectify_(p.get_bool("rectify", false)) {}
  std::string type() const override { return "AdaBelief"; }
  std::vector<std::string> state_names() const override {
    if (amsgrad_) return {"mean", "var", "s_max"};
    return {"mean", "var"};
  }

 protected:
  Attrs hyper_parameters() const override {
    Attrs a = adam_parameters();
    a.set("wd", double(wd_));
    a.set("amsgrad", amsgrad_);
    a.set("weight_decouple", weight_decouple_);
    a.set("fixed_decay", fixed_decay_);
    a.set("rectify", rectify_);
    return a;
  }
  void update_impl(Entry& e) override {
    const uint32_t t = current_step(e.state);
    const double beta1_t = std::pow(double(beta1_), double(t));
    const double beta2_t = std::pow(double(beta2_), double(t));
    const double correction = std::sqrt(1.0 - beta2_t) / (1.0 - beta1_t);
    double r_t = 1.0, rho_t = 0.0;
    if (rectify_) {
      const double rho_inf = 2.0 / (1.0 - beta2_) - 1.0;
      rho_t = rho_inf - 2.0 * t * beta2_t / (1.0 - beta2_t);
      r_t = std::sqrt((rho_t - 4.0) * (rho_t - 2.0) * rho_inf / ((rho_inf - 4.0) * (rho_inf - 2.0) * rho_t));
    }
    const bool sgd_step = rectify_ && rho_t <= 4.0;
    const float alpha_t = sgd_step ? alpha_ : float(alpha_ * r_t * correction);
    const float decay = weight_decouple_ ? (fixed_decay_ ? wd_ : wd_ * alpha_) : 0.0f;

    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* m = state_data(e.state, "mean");
    float* s = state_data(e.state, "var");
    float* s_max = amsgrad_ ? state_data(e.state, "s_max") : nullptr;
    const float beta1 = beta1_, beta2 = beta2_, eps = eps_;
    const bool amsgrad = amsgrad_;
    for_each_element(e.var->size(), [&](int64_t i) {
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      const float diff = g[i] - m[i];
      s[i] = beta2 * s[i] + (1 - beta2) * diff * diff;
      x[i] = x[i] - x[i] * decay;
      if (amsgrad) s_max[i] = std::max(s_max[i], s[i]);
      if (sgd_step) {
        x[i] = x[i] - alpha_t * m[i];
      } else {
        const float s_t = amsgrad ? s_max[i] : s[i];
        x[i] = x[i] - alpha_t * m[i] / (std::sqrt(s_t + eps) + eps);
      }
    });
  }

 private:
  float wd_;
  bool amsgrad_, weight_decouple_, fixed_decay_, rectify_;
};

}  // namespace

std::unique_ptr<Solver> make_adam(const Attrs& p) { return std::make_unique<Adam>(p); }
std::unique_ptr<Solver> make_adamw(const Attrs& p) { return std::make_unique<AdamW>(p); }
std::unique_ptr<Solver> make_adamax(const Attrs& p) { return std::make_unique<Adamax>(p); }
std::unique_ptr<Solver> make_amsgrad(const Attrs& p) { return std::make_unique<AMSGRAD>(p); }
std::unique_ptr<Solver> make_adabelief(const Attrs& p) { return std::make_unique<AdaBelief>(p); }

}  // namespace nn::solvers
