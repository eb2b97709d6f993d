// Per-element adaptive solvers: Adadelta, Adagrad, RMSprop, RMSpropGraves (nnabla's rules and defaults).
#include <cmath>

#include "solvers/solver_common.hpp"

namespace nn::solvers {
namespace {

// E[g^2] = decay E[g^2] + (1 - decay) g^2; delta = sqrt((E[dx^2] + eps) / (E[g^2] + eps)) g;
// E[dx^2] = decay E[dx^2] + (1 - decay) delta^2; x -= lr delta
class Adadelta : public Solver {
 public:
  explicit Adadelta(const Attrs& p)
      : lr_(float(p.get_float("lr", 1.0))),
        decay_(float(p.get_float("decay", 0.95))),
        eps_(float(p.get_float("eps", 1e-6))) {}
  std::string type() const override { return "Adadelta"; }
  double learning_rate() const override { return lr_; }
  void set_learning_rate(double lr) override { lr_ = float(lr); }
  std::vector<std::string> state_names() const override { return {"e_sqr_grad", "e_sqr_delta"}; }

 protected:
  Attrs hyper_parameters() const override {
    return {{"lr", double(lr_)}, {"decay", double(decay_)}, {"eps", double(eps_)}};
  }
  void update_impl(Entry& e) override {
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* e_sqr_grad = state_data(e.state, "e_sqr_grad");
    float* e_sqr_delta = state_data(e.state, "e_sqr_delta");
    const float lr = lr_, decay = decay_, eps = eps_;
    for_each_element(e.var->size(), [&](int64_t i) {
      e_sqr_grad[i] = e_sqr_grad[i] * decay + g[i] * g[i] * (1 - decay);
      const float delta = std::sqrt((e_sqr_delta[i] + eps) / (e_sqr_grad[i] + eps)) * g[i];
      e_sqr_delta[i] = e_sqr_delta[i] * decay + delta * delta * (1 - decay);
      x[i] -= lr * delta;
    });
  }

 private:
  float lr_, decay_, eps_;
};

// v += g^2; x -= lr g / (sqrt(v) + eps)
class Adagrad : public Solver {
 public:
  explicit Adagrad(const Attrs& p) : lr_(float(p.get_float("lr", 1e-2))), eps_(float(p.get_float("eps", 1e-8))) {}
  std::string type() const override { return "Adagrad"; }
  double learning_rate() const override { return lr_; }
  void set_learning_rate(double lr) override { lr_ = float(lr); }
  std::vector<std::string> state_names() const override { return {"v"}; }

 protected:
  Attrs hyper_parameters() const override { return {{"lr", double(lr_)}, {"eps", double(eps_)}}; }
  void update_impl(Entry& e) override {
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* v = state_data(e.state, "v");
    const float lr = lr_, eps = eps_;
    for_each_element(e.var->size(), [&](int64_t i) {
      v[i] += g[i] * g[i];
      x[i] -= lr * g[i] / (std::sqrt(v[i]) + eps);
    });
  }

 private:
  float lr_, eps_;
};

// v = decay v + (1 - decay) g^2; x -= lr g / (sqrt(v) + eps)
class RMSprop : public Solver {
 public:
  explicit RMSprop(const Attrs& p)
      : lr_(float(p.get_float("lr", 1e-3))),
        decay_(float(p.get_float("decay", 0.9))),
        eps_(float(p.get_float("eps", 1e-8))) {}
  std::string type() const override { return "RMSprop"; }
  double learning_rate() const override { return lr_; }
  void set_learning_rate(double lr) override { lr_ = float(lr); }
  std::vector<std::string> state_names() const override { return {"v"}; }

 protected:
  Attrs hyper_parameters() const override {
    return {{"lr", double(lr_)}, {"decay", double(decay_)}, {"eps", double(eps_)}};
  }
  void update_impl(Entry& e) override {
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* v = state_data(e.state, "v");
    const float lr = lr_, decay = decay_, eps = eps_;
    for_each_element(e.var->size(), [&](int64_t i) {
      v[i] = v[i] * decay + g[i] * g[i] * (1 - decay);
      x[i] -= lr / (std::sqrt(v[i]) + eps) * g[i];
    });
  }

 private:
  float lr_, decay_, eps_;
};

// Graves' RMSprop: n = decay n + (1 - decay) g^2; m = decay m + (1 - decay) g;
// d = momentum d - lr g / sqrt(n - m^2 + eps); x += d
class RMSpropGraves : public Solver {
 public:
  explicit RMSpropGraves(const Attrs& p)
      : lr_(float(p.get_float("lr", 1e-4))),
        decay_(float(p.get_float("decay", 0.95))),
        momentum_(float(p.get_float("momentum", 0.9))),
        eps_(float(p.get_float("eps", 1e-4))) {}
  std::string type() const override { return "RMSpropGraves"; }
  double learning_rate() const override { return lr_; }
  void set_learning_rate(double lr) override { lr_ = float(lr); }
  std::vector<std::string> state_names() const override { return {"n", "g", "d"}; }

 protected:
  Attrs hyper_parameters() const override {
    return {
        {"lr", double(lr_)}, {"decay", double(decay_)}, {"momentum", double(momentum_)}, {"eps", double(eps_)}};
  }
  void update_impl(Entry& e) override {
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* n = state_data(e.state, "n");
    float* mean = state_data(e.state, "g");
    float* d = state_data(e.state, "d");
    const float lr = lr_, decay = decay_, momentum = momentum_, eps = eps_;
    for_each_element(e.var->size(), [&](int64_t i) {
      n[i] = decay * n[i] + (1 - decay) * g[i] * g[i];
      mean[i] = decay * mean[i] + (1 - decay) * g[i];
      d[i] = momentum * d[i] - lr * g[i] / std::sqrt(n[i] - mean[i] * mean[i] + eps);
      x[i] += d[i];
    });
  }

 private:
  float lr_, decay_, momentum_, eps_;
};

}  // namespace

std::unique_ptr<Solver> make_adadelta(const Attrs& p) { return std::make_unique<Adadelta>(p); }
std::unique_ptr<Solver> make_adagrad(const Attrs& p) { return std::make_unique<Adagrad>(p); }
std::unique_ptr<Solver> make_rmsprop(const Attrs& p) { return std::make_unique<RMSprop>(p); }
std::unique_ptr<Solver> make_rmsprop_graves(const Attrs& p) { return std::make_unique<RMSpropGraves>(p); }

}  // namespace nn::solvers
