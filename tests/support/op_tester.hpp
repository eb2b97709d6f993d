// Per-op tester: forward against a double-precision reference, backward against central differences
// of sum(g*y) computed on that reference, accum on pre-filled grads, propagate_down=false, and every other
// registered float backend (cuda, cudnn) against cpu:float where its device is present (backend_compare.hpp).
#pragma once
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "nn/core/shape.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::test {

struct RefArray {
  Shape shape;
  std::vector<double> data;
};
using RefInputs = std::vector<RefArray>;
// The independent reference: outputs (shape and values) from inputs, in double precision.
using Reference = std::function<std::vector<RefArray>(const RefInputs&, const Attrs&)>;

struct OpTestCase {
  std::string type;
  Attrs attrs;
  std::vector<RefArray> inputs;  // values used as given (see random_input)
  Reference reference;
  double atol = 1e-5, rtol = 1e-4;            // forward tolerance
  double grad_atol = 2e-3, grad_rtol = 2e-3;  // backward tolerance
  double eps = 1e-3;                          // central-difference step
  std::vector<bool> check_grad;               // per input; empty = every input
  bool check_backward = true;
  int skip_outputs_for_grad = -1;  // >=0: only outputs [0, n) get random grads (others zero)
  uint32_t seed = 7;
};

// Uniform values in [lo, hi), optionally kept at least `margin` away from kinks listed in `avoid`.
RefArray random_input(const Shape& shape, std::mt19937& rng, double lo = -1.0, double hi = 1.0,
                      const std::vector<double>& avoid = {}, double margin = 0.05);
// Integer labels in [0, n).
RefArray random_labels(const Shape& shape, std::mt19937& rng, int64_t n);

// Runs all checks with gtest assertions.
void run_op_test(const OpTestCase& tc);

// Ops whose CUDA kernels cannot give the CPU's values (their own random streams or rounding): run_op_test does
// not compare their other backends; tests/gpu checks them by statistics and tolerance.
const std::set<std::string>& ops_not_compared_with_cpu();

// Helpers for references: index arithmetic over C-order shapes.
int64_t ref_size(const Shape& s);

}  // namespace nn::test
