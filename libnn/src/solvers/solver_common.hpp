// Private helpers of the solver implementations: element loops, norms, the per-solver factories.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

#include "nn/ops/attributes.hpp"
#include "nn/solvers/solver.hpp"

namespace nn::solvers {

// Element loops above this many elements run on all threads.
constexpr int64_t kSolverParallelThreshold = 1 << 15;

// Calls f(i) for i in [0, n): vectorized, and multithreaded for large n. Each thread runs a private copy of
// f, so the vectorizer sees its captures as values rather than loads from the closure in memory (a closure
// reached through a pointer kept the update loops scalar).
template <class F>
inline void for_each_element(int64_t n, F&& f) {
#pragma omp parallel if (n >= kSolverParallelThreshold)
  {
    auto body = f;
#pragma omp for simd schedule(static)
    for (int64_t i = 0; i < n; ++i) body(i);
  }
}

// Sum of squares in double precision.
inline double sum_of_squares(const float* x, int64_t n) {
  double sum = 0.0;
#pragma omp parallel for simd reduction(+ : sum) schedule(static) if (n >= kSolverParallelThreshold)
  for (int64_t i = 0; i < n; ++i) sum += double(x[i]) * double(x[i]);
  return sum;
}

// The update count of the step being taken (the base increments state.t after update_impl).
inline uint32_t current_step(const SolverState& s) {
  return s.t < std::numeric_limits<uint32_t>::max() - 1 ? s.t + 1 : s.t;
}

// Raw float pointers of a parameter: data (read-write), grad (read-only), a state array (read-write).
inline float* param_data(Variable& v) { return v.data()->cast<float>(); }
inline const float* param_grad(Variable& v) { return v.grad()->get<float>(); }
inline float* state_data(SolverState& s, const std::string& name) { return s.pstate.at(name)->cast<float>(); }

// sqrt(1 - beta2^t) / (1 - beta1^t), Adam's bias correction folded into the step size.
inline double adam_bias_correction(float beta1, float beta2, uint32_t t) {
  return std::sqrt(1.0 - std::pow(double(beta2), double(t))) / (1.0 - std::pow(double(beta1), double(t)));
}

// Shared hyper-parameters alpha, beta1, beta2, eps of the Adam family.
class AdamLike : public Solver {
 public:
  double learning_rate() const override { return alpha_; }
  void set_learning_rate(double lr) override { alpha_ = float(lr); }
  double initial_learning_rate() const override { return init_alpha_; }

 protected:
  AdamLike(const Attrs& p, double default_alpha, bool fused = false, double default_decay = 0.0)
      : Solver(fused, default_decay),
        alpha_(float(p.get_float("alpha", default_alpha))),
        beta1_(float(p.get_float("beta1", 0.9))),
        beta2_(float(p.get_float("beta2", 0.999))),
        eps_(float(p.get_float("eps", 1e-8))),
        init_alpha_(alpha_) {}
  Attrs adam_parameters() const {
    return {
        {"alpha", double(alpha_)}, {"beta1", double(beta1_)}, {"beta2", double(beta2_)}, {"eps", double(eps_)}};
  }
  float alpha_, beta1_, beta2_, eps_, init_alpha_;
};

// Factories, one per solvers.def entry, defined by the solver files.
#define NN_SOLVER(Type, snake) std::unique_ptr<Solver> make_##snake(const Attrs& params);
#include "nn/solvers/solvers.def"
#undef NN_SOLVER

}  // namespace nn::solvers
