// Two hand-computed steps of Sgd, SgdW, Momentum, Nesterov, Lars, Adadelta, Adagrad, RMSprop, RMSpropGraves.
#include <cmath>

#include "solver_test_util.hpp"

namespace nn::test {
namespace {

TEST(SolverUpdate, Sgd) {
  const double lr = 0.1;
  check_two_steps("Sgd", {{"lr", lr}}, [&](Vec& x, const Vec& g, int) {
    for (size_t i = 0; i < x.size(); ++i) x[i] -= lr * g[i];
  });
}

TEST(SolverUpdate, SgdW) {
  // Decoupled decay with the constructor's wd, then with a rate from weight_decay() (fused).
  const double lr = 0.1, momentum = 0.8, wd = 0.05;
  for (double rate : {wd, 0.2}) {
    Vec v(x0().size(), 0.0);
    check_two_steps(
        "SgdW", {{"lr", lr}, {"momentum", momentum}, {"wd", wd}},
        [&](Vec& x, const Vec& g, int) {
          for (size_t i = 0; i < x.size(); ++i) {
            v[i] = momentum * v[i] + lr * g[i];
            x[i] = x[i] - v[i] - (lr / lr) * rate * x[i];
          }
        },
        [&](Solver& s) {
          if (rate != wd) s.weight_decay(rate);
        });
  }
}

TEST(SolverUpdate, Momentum) {
  const double lr = 0.1, momentum = 0.7;
  Vec v(x0().size(), 0.0);
  check_two_steps("Momentum", {{"lr", lr}, {"momentum", momentum}}, [&](Vec& x, const Vec& g, int) {
    for (size_t i = 0; i < x.size(); ++i) {
      v[i] = momentum * v[i] + lr * g[i];
      x[i] -= v[i];
    }
  });
}

TEST(SolverUpdate, Nesterov) {
  const double lr = 0.1, momentum = 0.7;
  Vec v(x0().size(), 0.0);
  check_two_steps("Nesterov", {{"lr", lr}, {"momentum", momentum}}, [&](Vec& x, const Vec& g, int) {
    for (size_t i = 0; i < x.size(); ++i) {
      const double v_prev = v[i];
      v[i] = momentum * v[i] - lr * g[i];
      x[i] += -momentum * v_prev + (1 + momentum) * v[i];
    }
  });
}

TEST(SolverUpdate, Lars) {
  const double lr = 0.5, momentum = 0.9, coefficient = 0.01, eps = 1e-6, decay = 0.1;
  Vec v(x0().size(), 0.0);
  check_two_steps(
      "Lars", {{"lr", lr}, {"momentum", momentum}, {"coefficient", coefficient}, {"eps", eps}},
      [&](Vec& x, const Vec& g, int) {
        const double g_norm = norm_of(g), x_norm = norm_of(x);
        double denom = g_norm + decay * x_norm;
        if (denom < eps) denom += eps;
        const double local_lr = x_norm < eps ? lr : lr * coefficient * x_norm / denom;
        for (size_t i = 0; i < x.size(); ++i) {
          v[i] = momentum * v[i] + local_lr * (g[i] + decay * x[i]);
          x[i] -= v[i];
        }
      },
      [&](Solver& s) { s.weight_decay(decay); });
}

TEST(SolverUpdate, Adadelta) {
  // A larger eps than the default 1e-6 makes the first steps large enough to check closely.
  const double lr = 1.0, decay = 0.95, eps = 1e-2;
  Vec eg(x0().size(), 0.0), ed(x0().size(), 0.0);
  check_two_steps("Adadelta", {{"eps", eps}}, [&](Vec& x, const Vec& g, int) {
    for (size_t i = 0; i < x.size(); ++i) {
      eg[i] = decay * eg[i] + (1 - decay) * g[i] * g[i];
      const double delta = std::sqrt((ed[i] + eps) / (eg[i] + eps)) * g[i];
      ed[i] = decay * ed[i] + (1 - decay) * delta * delta;
      x[i] -= lr * delta;
    }
  });
}

TEST(SolverUpdate, Adagrad) {
  const double lr = 0.1, eps = 1e-8;
  Vec acc(x0().size(), 0.0);
  check_two_steps("Adagrad", {{"lr", lr}}, [&](Vec& x, const Vec& g, int) {
    for (size_t i = 0; i < x.size(); ++i) {
      acc[i] += g[i] * g[i];
      x[i] -= lr * g[i] / (std::sqrt(acc[i]) + eps);
    }
  });
}

TEST(SolverUpdate, RMSprop) {
  const double lr = 0.01, decay = 0.9, eps = 1e-8;
  Vec ms(x0().size(), 0.0);
  check_two_steps("RMSprop", {{"lr", lr}}, [&](Vec& x, const Vec& g, int) {
    for (size_t i = 0; i < x.size(); ++i) {
      ms[i] = decay * ms[i] + (1 - decay) * g[i] * g[i];
      x[i] -= lr * g[i] / (std::sqrt(ms[i]) + eps);
    }
  });
}

TEST(SolverUpdate, RMSpropGraves) {
  const double lr = 0.01, decay = 0.95, momentum = 0.9, eps = 1e-4;
  Vec n(x0().size(), 0.0), mean(x0().size(), 0.0), d(x0().size(), 0.0);
  check_two_steps("RMSpropGraves", {{"lr", lr}}, [&](Vec& x, const Vec& g, int) {
    for (size_t i = 0; i < x.size(); ++i) {
      n[i] = decay * n[i] + (1 - decay) * g[i] * g[i];
      mean[i] = decay * mean[i] + (1 - decay) * g[i];
      d[i] = momentum * d[i] - lr * g[i] / std::sqrt(n[i] - mean[i] * mean[i] + eps);
      x[i] += d[i];
    }
  });
}

}  // namespace
}  // namespace nn::test
