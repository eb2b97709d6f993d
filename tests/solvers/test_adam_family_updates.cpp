// Two hand-computed steps of Adam, AdamW, Adamax, AMSGRAD, AdaBelief, AdaBound, AMSBound, Lamb, Lion.
#include <algorithm>
#include <cmath>

#include "solver_test_util.hpp"

namespace nn::test {
namespace {

double adam_correction(double beta1, double beta2, int t) {
  return std::sqrt(1 - std::pow(beta2, t)) / (1 - std::pow(beta1, t));
}

TEST(SolverUpdate, Adam) {
  const double alpha = 0.01, beta1 = 0.8, beta2 = 0.95, eps = 1e-8;
  Vec m(x0().size(), 0.0), v(x0().size(), 0.0);
  check_two_steps("Adam", {{"alpha", alpha}, {"beta1", beta1}, {"beta2", beta2}},
                  [&](Vec& x, const Vec& g, int t) {
                    const double alpha_t = alpha * adam_correction(beta1, beta2, t);
                    for (size_t i = 0; i < x.size(); ++i) {
                      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
                      v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
                      x[i] -= alpha_t * m[i] / (std::sqrt(v[i]) + eps);
                    }
                  });
}

TEST(SolverUpdate, AdamW) {
  const double alpha = 0.01, beta1 = 0.9, beta2 = 0.999, eps = 1e-8, wd = 0.1;
  Vec m(x0().size(), 0.0), v(x0().size(), 0.0);
  check_two_steps("AdamW", {{"alpha", alpha}, {"wd", wd}}, [&](Vec& x, const Vec& g, int t) {
    const double alpha_t = alpha * adam_correction(beta1, beta2, t);
    for (size_t i = 0; i < x.size(); ++i) {
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
      x[i] = x[i] - alpha_t * m[i] / (std::sqrt(v[i]) + eps) - (alpha / alpha) * wd * x[i];
    }
  });
}

TEST(SolverUpdate, Adamax) {
  const double alpha = 0.02, beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  Vec m(x0().size(), 0.0), u(x0().size(), 0.0);
  check_two_steps("Adamax", {{"alpha", alpha}}, [&](Vec& x, const Vec& g, int t) {
    const double alpha_t = alpha / (1 - std::pow(beta1, t));
    for (size_t i = 0; i < x.size(); ++i) {
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      u[i] = std::max(beta2 * u[i], std::abs(g[i]));
      x[i] -= alpha_t * m[i] / (u[i] + eps);
    }
  });
}

TEST(SolverUpdate, AMSGRAD) {
  const double alpha = 0.01, beta1 = 0.9, beta2 = 0.99, eps = 1e-8;
  for (bool bias_correction : {false, true}) {
    Vec m(x0().size(), 0.0), v(x0().size(), 0.0), v_hat(x0().size(), 0.0);
    check_two_steps("AMSGRAD", {{"alpha", alpha}, {"beta2", beta2}, {"bias_correction", bias_correction}},
                    [&](Vec& x, const Vec& g, int t) {
                      const double alpha_t = alpha * (bias_correction ? adam_correction(beta1, beta2, t) : 1.0);
                      for (size_t i = 0; i < x.size(); ++i) {
                        m[i] = beta1 * m[i] + (1 - beta1) * g[i];
                        v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
                        v_hat[i] = std::max(v_hat[i], v[i]);
                        x[i] -= alpha_t * m[i] / (std::sqrt(v_hat[i]) + eps);
                      }
                    });
  }
}

// AdaBelief reference for any flag combination; t0 is the update count the solver starts from.
void check_adabelief(bool amsgrad, bool weight_decouple, bool fixed_decay, bool rectify, uint32_t t0) {
  const double alpha = 0.01, beta1 = 0.9, beta2 = 0.999, eps = 1e-8, wd = 0.1;
  const Attrs params{{"alpha", alpha},
                     {"wd", wd},
                     {"amsgrad", amsgrad},
                     {"weight_decouple", weight_decouple},
                     {"fixed_decay", fixed_decay},
                     {"rectify", rectify}};
  auto solver = create_solver("AdaBelief", params);
  auto param = make_param(x0());
  solver->set_parameters({{"w", param}});
  auto states = solver->get_states();
  states[0].second.t = t0;
  solver->set_states(states);
  Vec x = x0(), m(x.size(), 0.0), s(x.size(), 0.0), s_max(x.size(), 0.0);
  for (size_t step = 0; step < step_grads().size(); ++step) {
    const Vec& g = step_grads()[step];
    set_grad(*param, g);
    solver->update();
    const int t = int(t0 + step + 1);
    const double b1t = std::pow(beta1, t), b2t = std::pow(beta2, t);
    double r = 1, rho = 0;
    if (rectify) {
      const double rho_inf = 2 / (1 - beta2) - 1;
      rho = rho_inf - 2 * t * b2t / (1 - b2t);
      r = std::sqrt((rho - 4) * (rho - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho));
    }
    const bool sgd_step = rectify && rho <= 4;
    const double alpha_t = sgd_step ? alpha : alpha * r * std::sqrt(1 - b2t) / (1 - b1t);
    for (size_t i = 0; i < x.size(); ++i) {
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      s[i] = beta2 * s[i] + (1 - beta2) * (g[i] - m[i]) * (g[i] - m[i]);
      if (weight_decouple) x[i] -= x[i] * (fixed_decay ? wd : wd * alpha);
      s_max[i] = std::max(s_max[i], s[i]);
      const double s_t = amsgrad ? s_max[i] : s[i];
      x[i] -= sgd_step ? alpha_t * m[i] : alpha_t * m[i] / (std::sqrt(s_t + eps) + eps);
    }
    expect_close(values_of(param->data()), x, "AdaBelief step " + std::to_string(step + 1));
  }
}

TEST(SolverUpdate, AdaBelief) {
  check_adabelief(false, false, false, false, 0);
  check_adabelief(true, true, false, false, 0);
  check_adabelief(false, true, true, false, 0);
  check_adabelief(false, false, false, true, 0);   // rho_t <= 4: the plain momentum step
  check_adabelief(true, false, false, true, 100);  // rectified step
}

// AdaBound (amsbound=false) and AMSBound references.
void check_bound(bool amsbound, bool bias_correction) {
  const double alpha = 0.005, beta1 = 0.9, beta2 = 0.999, eps = 1e-8, final_lr = 0.1, gamma = 0.5;
  Attrs params{{"alpha", alpha}, {"gamma", gamma}};
  if (amsbound) params.set("bias_correction", bias_correction);
  Vec m(x0().size(), 0.0), v(x0().size(), 0.0), v_hat(x0().size(), 0.0);
  check_two_steps(amsbound ? "AMSBound" : "AdaBound", params, [&](Vec& x, const Vec& g, int t) {
    const double alpha_t = alpha * (bias_correction ? adam_correction(beta1, beta2, t) : 1.0);
    const double lower = final_lr * (1 - 1 / (gamma * t + 1));
    // nnabla's AMSBound upper bound is final_lr * (1 + t / gamma) (its operator precedence).
    const double upper = amsbound ? final_lr * (1 + t / gamma) : final_lr * (1 + 1 / (gamma * t));
    for (size_t i = 0; i < x.size(); ++i) {
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
      v_hat[i] = std::max(v_hat[i], v[i]);
      const double denom = std::sqrt(amsbound ? v_hat[i] : v[i]) + eps;
      const double eta = std::min(upper, std::max(alpha_t / denom, lower));
      x[i] -= eta * m[i];
    }
  });
}

TEST(SolverUpdate, AdaBound) { check_bound(false, true); }

TEST(SolverUpdate, AMSBound) {
  check_bound(true, false);
  check_bound(true, true);
}

TEST(SolverUpdate, Lamb) {
  const double eta = 0.1, beta1 = 0.9, beta2 = 0.999, gamma_l = 0.0, gamma_u = 2.0, eps = 1e-6, decay = 0.01;
  for (bool bias_correction : {false, true}) {
    Vec m(x0().size(), 0.0), v(x0().size(), 0.0);
    check_two_steps(
        "Lamb", {{"eta", eta}, {"gamma_u", gamma_u}, {"bias_correction", bias_correction}},
        [&](Vec& x, const Vec& g, int t) {
          const double c1 = bias_correction ? 1 - std::pow(beta1, t) : 1.0;
          const double c2 = bias_correction ? 1 - std::pow(beta2, t) : 1.0;
          Vec r(x.size());
          for (size_t i = 0; i < x.size(); ++i) {
            m[i] = beta1 * m[i] + (1 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
            r[i] = (m[i] / c1) / (std::sqrt(v[i] / c2) + eps) + decay * x[i];
          }
          const double x_norm = std::min(std::max(norm_of(x), gamma_l), gamma_u);
          const double r_norm = norm_of(r);
          const double ratio = r_norm > eps ? x_norm / r_norm : 1.0;
          for (size_t i = 0; i < x.size(); ++i) x[i] -= eta * ratio * r[i];
        },
        [&](Solver& s) { s.weight_decay(decay); });
  }
}

TEST(SolverUpdate, Lion) {
  const double lr = 0.01, beta1 = 0.9, beta2 = 0.99, decay = 0.5;
  Vec m(x0().size(), 0.0);
  check_two_steps(
      "Lion", {{"lr", lr}},
      [&](Vec& x, const Vec& g, int) {
        for (size_t i = 0; i < x.size(); ++i) {
          const double c = beta1 * m[i] + (1 - beta1) * g[i];
          const double u = c > 0 ? 1.0 : (c < 0 ? -1.0 : 0.0);
          m[i] = beta2 * m[i] + (1 - beta2) * g[i];
          x[i] -= lr * (u + decay * x[i]);
        }
      },
      [&](Solver& s) { s.weight_decay(decay); });
}

}  // namespace
}  // namespace nn::test
