// First-order solvers: Sgd, SgdW, Momentum, Nesterov, Lars (nnabla's update rules and defaults).
#include <cmath>

#include "solvers/solver_common.hpp"

namespace nn::solvers {
namespace {

// x -= lr * g
class Sgd : public Solver {
 public:
  explicit Sgd(const Attrs& p) : lr_(float(p.get_float("lr", 1e-3))) {}
  std::string type() const override { return "Sgd"; }
  double learning_rate() const override { return lr_; }
  void set_learning_rate(double lr) override { lr_ = float(lr); }
  std::vector<std::string> state_names() const override { return {}; }

 protected:
  Attrs hyper_parameters() const override { return {{"lr", double(lr_)}}; }
  void update_impl(Entry& e) override {
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    const float lr = lr_;
    for_each_element(e.var->size(), [&](int64_t i) { x[i] -= lr * g[i]; });
  }

 private:
  float lr_;
};

// v = momentum * v + lr * g; x = x - v - (lr / lr0) * wd * x  (decoupled decay, wd fused into update).
class SgdW : public Solver {
 public:
  explicit SgdW(const Attrs& p)
      : Solver(true, p.get_float("wd", 1e-4)),
        lr_(float(p.get_float("lr", 1e-3))),
        momentum_(float(p.get_float("momentum", 0.9))),
        wd_(float(p.get_float("wd", 1e-4))),
        init_lr_(lr_) {}
  std::string type() const override { return "SgdW"; }
  double learning_rate() const override { return lr_; }
  void set_learning_rate(double lr) override { lr_ = float(lr); }
  double initial_learning_rate() const override { return init_lr_; }
  std::vector<std::string> state_names() const override { return {"m"}; }

 protected:
  Attrs hyper_parameters() const override {
    return {{"lr", double(lr_)}, {"momentum", double(momentum_)}, {"wd", double(wd_)}};
  }
  void update_impl(Entry& e) override {
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* v = state_data(e.state, "m");
    const float lr = lr_, momentum = momentum_;
    const float decay = float((init_lr_ != 0.0f ? lr_ / init_lr_ : 1.0f) * fused_decay_rate());
    for_each_element(e.var->size(), [&](int64_t i) {
      v[i] = momentum * v[i] + lr * g[i];
      x[i] = x[i] - v[i] - decay * x[i];
    });
  }

 private:
  float lr_, momentum_, wd_, init_lr_;
};

// v = momentum * v + lr * g; x -= v
class Momentum : public Solver {
 public:
  explicit Momentum(const Attrs& p)
      : lr_(float(p.get_float("lr", 1e-3))), momentum_(float(p.get_float("momentum", 0.9))) {}
  std::string type() const override { return "Momentum"; }
  double learning_rate() const override { return lr_; }
  void set_learning_rate(double lr) override { lr_ = float(lr); }
  std::vector<std::string> state_names() const override { return {"m"}; }

 protected:
  Attrs hyper_parameters() const override { return {{"lr", double(lr_)}, {"momentum", double(momentum_)}}; }
  void update_impl(Entry& e) override {
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* v = state_data(e.state, "m");
    const float lr = lr_, momentum = momentum_;
    for_each_element(e.var->size(), [&](int64_t i) {
      v[i] = momentum * v[i] + lr * g[i];
      x[i] -= v[i];
    });
  }

 private:
  float lr_, momentum_;
};

// v' = momentum * v - lr * g; x += -momentum * v + (1 + momentum) * v'
class Nesterov : public Solver {
 public:
  explicit Nesterov(const Attrs& p)
      : lr_(float(p.get_float("lr", 1e-3))), momentum_(float(p.get_float("momentum", 0.9))) {}
  std::string type() const override { return "Nesterov"; }
  double learning_rate() const override { return lr_; }
  void set_learning_rate(double lr) override { lr_ = float(lr); }
  std::vector<std::string> state_names() const override { return {"m"}; }

 protected:
  Attrs hyper_parameters() const override { return {{"lr", double(lr_)}, {"momentum", double(momentum_)}}; }
  void update_impl(Entry& e) override {
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* v = state_data(e.state, "m");
    const float lr = lr_, momentum = momentum_;
    for_each_element(e.var->size(), [&](int64_t i) {
      const float v_prev = v[i];
      v[i] = momentum * v[i] - lr * g[i];
      x[i] += -momentum * v_prev + (1 + momentum) * v[i];
    });
  }

 private:
  float lr_, momentum_;
};

// Layer-wise adaptive rate scaling. With d = weight decay rate (kept from the last weight_decay call):
// local_lr = lr * coefficient * ||x|| / (||g|| + d ||x||)  (lr when ||x|| < eps; eps added to a tiny
// denominator), v = momentum * v + local_lr * (g + d x), x -= v.
class Lars : public Solver {
 public:
  explicit Lars(const Attrs& p)
      : Solver(true, 0.0, true),
        lr_(float(p.get_float("lr", 1e-3))),
        momentum_(float(p.get_float("momentum", 0.9))),
        coefficient_(float(p.get_float("coefficient", 0.001))),
        eps_(float(p.get_float("eps", 1e-6))) {}
  std::string type() const override { return "Lars"; }
  double learning_rate() const override { return lr_; }
  void set_learning_rate(double lr) override { lr_ = float(lr); }
  std::vector<std::string> state_names() const override { return {"v"}; }

 protected:
  Attrs hyper_parameters() const override {
    return {{"lr", double(lr_)},
            {"momentum", double(momentum_)},
            {"coefficient", double(coefficient_)},
            {"eps", double(eps_)}};
  }
  void update_impl(Entry& e) override {
    const int64_t n = e.var->size();
    float* x = param_data(*e.var);
    const float* g = param_grad(*e.var);
    float* v = state_data(e.state, "v");
    const float decay = float(fused_decay_rate());
    const double g_norm = std::sqrt(sum_of_squares(g, n));
    const double x_norm = std::sqrt(sum_of_squares(x, n));
    double denom = g_norm + decay * x_norm;
    if (denom < eps_) denom += eps_;
    const float local_lr = x_norm < eps_ ? lr_ : float(lr_ * coefficient_ * x_norm / denom);
    const float momentum = momentum_;
    for_each_element(n, [&](int64_t i) {
      v[i] = momentum * v[i] + local_lr * (g[i] + decay * x[i]);
      x[i] -= v[i];
    });
  }

 private:
  float lr_, momentum_, coefficient_, eps_;
};

}  // namespace

std::unique_ptr<Solver> make_sgd(const Attrs& p) { return std::make_unique<Sgd>(p); }
std::unique_ptr<Solver> make_sgdw(const Attrs& p) { return std::make_unique<SgdW>(p); }
std::unique_ptr<Solver> make_momentum(const Attrs& p) { return std::make_unique<Momentum>(p); }
std::unique_ptr<Solver> make_nesterov(const Attrs& p) { return std::make_unique<Nesterov>(p); }
std::unique_ptr<Solver> make_lars(const Attrs& p) { return std::make_unique<Lars>(p); }

}  // namespace nn::solvers
