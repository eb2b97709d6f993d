// Runs one function on cpu:float and on the CUDA context with the same inputs and output grads, and
// compares outputs and input grads (accum off and on); skips the test when no CUDA device is present.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "nn/core/context.hpp"
#include "nn/cuda/cuda.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"

namespace nn::gpu_test {

#define NN_SKIP_WITHOUT_GPU()                                                                   \
  do {                                                                                        \
    if (::nn::cuda::device_count() == 0)                                                      \
      GTEST_SKIP() << "no CUDA device (" << ::nn::cuda::device_problem() << ")";              \
  } while (0)

struct GpuCase {
  std::string op;
  Attrs attrs;
  std::vector<Shape> shapes;
  std::vector<std::vector<float>> values;  // empty entry: random in [lo, hi)
  std::vector<bool> grad;                  // per input; empty: every input
  float lo = -1.f, hi = 1.f;
  double rtol = 1e-4, atol = 1e-5;
  // The GPU context: "cudnn" (cudnn:float, cuda:float) or "cudnn:half", whose kernels store fp16 (give
  // tolerances near 1e-2 then: the CPU reference stays float).
  std::string context = "cudnn";
};

struct RunResult {
  std::vector<std::vector<float>> outputs, grads;
};

inline std::vector<float> random_values(int64_t n, std::mt19937& rng, float lo, float hi) {
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(static_cast<size_t>(n));
  for (auto& x : v) x = u(rng);
  return v;
}

inline void fill(const NdArrayPtr& a, const std::vector<float>& v) {
  float* p = a->cast<float>(true);
  std::copy(v.begin(), v.end(), p);
}

// Knobs of run_on beyond the defaults: the number of outputs (-1: the function's own count), forwards
// before the backward, and a look at the inputs after them (e.g. running statistics updated in place).
struct RunOptions {
  int outputs = -1;
  int forwards = 1;
  std::function<void(const Variables& in)> after_forward;
};

inline RunResult run_on(const GpuCase& c, const std::vector<std::vector<float>>& values, const Context& ctx,
                        bool accum, const RunOptions& options = {}) {
  auto f = OpRegistry::instance().create(c.op, c.attrs, ctx);
  std::vector<VariablePtr> in_vars, out_vars;
  Variables in, out;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    in_vars.push_back(Variable::create(c.shapes[i], true));
    fill(in_vars.back()->data(), values[i]);
    in.push_back(in_vars.back().get());
  }
  const int n_out = options.outputs >= 0 ? options.outputs : f->num_outputs(c.shapes);
  for (int o = 0; o < n_out; ++o) {
    out_vars.push_back(Variable::create({}, true));
    out.push_back(out_vars.back().get());
  }
  f->setup(in, out);
  for (int k = 0; k < options.forwards; ++k) f->forward(in, out);
  if (options.after_forward) options.after_forward(in);
  std::mt19937 rng(11);
  for (auto* o : out) fill(o->grad(), random_values(o->size(), rng, -1.f, 1.f));
  std::vector<bool> prop(in.size()), acc(in.size(), accum);
  for (size_t i = 0; i < in.size(); ++i) {
    prop[i] = c.grad.empty() || c.grad[i];
    if (accum) in[i]->grad()->fill(0.5);
  }
  RunResult r;
  if (f->has_backward()) f->backward(in, out, prop, acc);
  for (auto* o : out) r.outputs.push_back(o->data()->to_vector());
  for (size_t i = 0; i < in.size(); ++i)
    r.grads.push_back(prop[i] && f->has_backward() ? in[i]->grad()->to_vector() : std::vector<float>{});
  return r;
}

// The case's input values: given ones, else uniform in [lo, hi) from a fixed seed.
inline std::vector<std::vector<float>> case_values(const GpuCase& c) {
  std::mt19937 rng(5);
  std::vector<std::vector<float>> values;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    const bool given = i < c.values.size() && !c.values[i].empty();
    values.push_back(given ? c.values[i] : random_values(shape_size(c.shapes[i]), rng, c.lo, c.hi));
  }
  return values;
}

inline void expect_close(const std::vector<float>& gpu, const std::vector<float>& cpu, const GpuCase& c,
                         const std::string& what) {
  ASSERT_EQ(gpu.size(), cpu.size()) << c.op << " " << what;
  for (size_t i = 0; i < cpu.size(); ++i) {
    const double tol = c.atol + c.rtol * std::fabs(cpu[i]);
    ASSERT_NEAR(gpu[i], cpu[i], tol) << c.op << " " << what << " element " << i;
  }
}

// The op must have a CUDA kernel (no silent CPU fallback), then both contexts must agree.
inline void compare_with_cpu(const GpuCase& c) {
  const auto kernels = OpRegistry::instance().kernels(c.op);
  const std::string type = parse_context(c.context).uses_half() ? "half" : "float";
  const bool has_kernel = std::find(kernels.begin(), kernels.end(), "cuda:" + type) != kernels.end() ||
                          std::find(kernels.begin(), kernels.end(), "cudnn:" + type) != kernels.end();
  ASSERT_TRUE(has_kernel) << c.op << " has no CUDA kernel for type " << type;
  const auto values = case_values(c);
  for (bool accum : {false, true}) {
    RunResult cpu = run_on(c, values, cpu_context(), accum);
    RunResult gpu = run_on(c, values, parse_context(c.context), accum);
    const std::string mode = accum ? " (accum)" : "";
    for (size_t o = 0; o < cpu.outputs.size(); ++o) expect_close(gpu.outputs[o], cpu.outputs[o], c, "output" + mode);
    for (size_t i = 0; i < cpu.grads.size(); ++i)
      expect_close(gpu.grads[i], cpu.grads[i], c, "grad of input " + std::to_string(i) + mode);
  }
}

}  // namespace nn::gpu_test
