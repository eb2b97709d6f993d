// The one comparison of a backend with cpu:float, used by the per-op tester (every registered float kernel on
// each op case) and by the GPU tests (fp16 kernels, sizes past one CUDA block, and what needs a device):
// the op runs on both contexts with the same inputs and output grads, and outputs and input grads must agree,
// with and without accum.
#pragma once
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "nn/core/context.hpp"
#include "nn/core/ndarray.hpp"
#include "nn/core/shape.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::test {

struct BackendCase {
  std::string op;
  Attrs attrs;
  std::vector<Shape> shapes;
  std::vector<std::vector<float>> values;  // per input; an empty entry: uniform in [lo, hi) from a fixed seed
  std::vector<bool> grad;                  // per input whose grad is checked; empty: every input
  float lo = -1.f, hi = 1.f;
  double rtol = 1e-4, atol = 1e-5;
  // The other context: "cudnn" (cudnn:float, cuda:float) or "cudnn:half", whose kernels store fp16 (give
  // tolerances near 1e-2 then: the reference stays cpu:float).
  std::string context = "cudnn";
  bool backward = true;
  // Output grads per output; absent ones are uniform in [-1, 1) from a fixed seed.
  std::vector<std::vector<float>> output_grads;
};

// Knobs of a run beyond the case: the number of outputs (-1: the function's own count), forwards before the
// backward, and a look at the inputs after them (e.g. running statistics updated in place).
struct RunOptions {
  int outputs = -1;
  int forwards = 1;
  std::function<void(const Variables& in)> after_forward;
};

struct Outcome {
  std::vector<std::vector<float>> outputs, grads;  // grads: empty for inputs not checked
};

// n values uniform in [lo, hi) drawn from rng, and their copy into a float array.
std::vector<float> random_values(int64_t n, std::mt19937& rng, float lo, float hi);
void fill(const NdArrayPtr& a, const std::vector<float>& v);

// The case's input values (given ones, else uniform in [lo, hi) from a fixed seed).
std::vector<std::vector<float>> case_values(const BackendCase& c);
// One forward and backward of the case on ctx; accum adds onto input grads pre-filled with 0.5.
Outcome run_on(const BackendCase& c, const std::vector<std::vector<float>>& values, const Context& ctx, bool accum,
               const RunOptions& options = {});
// Fails (at most five elements reported) where got and the cpu:float values differ beyond the case's tolerance.
void expect_same(const std::vector<float>& got, const std::vector<float>& cpu, const BackendCase& c,
                 const std::string& what);
// The case on c.context against cpu:float: outputs and checked input grads, accum off and on. The op must have a
// non-CPU kernel of the context's type (no silent CPU fallback).
void compare_with_cpu(const BackendCase& c);

}  // namespace nn::test
