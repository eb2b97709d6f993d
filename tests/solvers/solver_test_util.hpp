// Helpers of the solver tests: a parameter with set values and grads, running update steps, comparisons.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "nn/solvers/solver.hpp"

namespace nn::test {

using Vec = std::vector<double>;

inline VariablePtr make_param(const Vec& values) {
  auto v = Variable::create({int64_t(values.size())}, true);
  float* p = v->data()->cast<float>(true);
  for (size_t i = 0; i < values.size(); ++i) p[i] = float(values[i]);
  return v;
}

inline void set_grad(Variable& v, const Vec& g) {
  float* p = v.grad()->cast<float>(true);
  for (size_t i = 0; i < g.size(); ++i) p[i] = float(g[i]);
}

inline Vec values_of(const NdArrayPtr& a) {
  auto f = a->to_vector();
  return Vec(f.begin(), f.end());
}

// The fixed data of every two-step test: initial parameter and the grads of step 1 and step 2.
inline const Vec& x0() {
  static const Vec v = {0.5, -1.5, 2.0, -0.25, 1.0, 0.75};
  return v;
}
inline const std::vector<Vec>& step_grads() {
  static const std::vector<Vec> g = {{0.1, -0.3, 0.25, 0.05, -0.2, 0.4}, {-0.15, 0.2, 0.3, 0.1, -0.05, -0.35}};
  return g;
}

// Runs one update per grad, calling before_update(solver) after the grad is set; returns x after each step.
inline std::vector<Vec> run_solver(Solver& solver, const Vec& x_init, const std::vector<Vec>& grads,
                                   const std::function<void(Solver&)>& before_update = nullptr) {
  auto param = make_param(x_init);
  solver.set_parameters({{"w", param}});
  std::vector<Vec> out;
  for (const auto& g : grads) {
    set_grad(*param, g);
    if (before_update) before_update(solver);
    solver.update();
    out.push_back(values_of(param->data()));
  }
  return out;
}

// float32 solver output against a double reference: 2e-6 absolute plus 1e-5 relative (float rounding of
// a few operations per step on values of order 1).
inline void expect_close(const Vec& actual, const Vec& expected, const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], 2e-6 + 1e-5 * std::abs(expected[i])) << what << " element " << i;
  }
}

// Runs `type` with params for two steps on x0 with step_grads and compares every step with reference,
// which updates x (and its own state) in place given the grad and the 1-based step t.
inline void check_two_steps(const std::string& type, const Attrs& params,
                            const std::function<void(Vec& x, const Vec& g, int t)>& reference,
                            const std::function<void(Solver&)>& before_update = nullptr) {
  auto solver = create_solver(type, params);
  auto got = run_solver(*solver, x0(), step_grads(), before_update);
  Vec x = x0();
  for (size_t s = 0; s < step_grads().size(); ++s) {
    reference(x, step_grads()[s], int(s) + 1);
    expect_close(got[s], x, type + " step " + std::to_string(s + 1));
  }
  EXPECT_EQ(solver->state("w").t, step_grads().size()) << type;
}

inline double norm_of(const Vec& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

}  // namespace nn::test
