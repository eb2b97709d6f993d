// The comparison of a backend with cpu:float (backend_compare.hpp).
#include "backend_compare.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "nn/ops/op_registry.hpp"

namespace nn::test {

std::vector<float> random_values(int64_t n, std::mt19937& rng, float lo, float hi) {
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(static_cast<size_t>(n));
  for (auto& x : v) x = u(rng);
  return v;
}

void fill(const NdArrayPtr& a, const std::vector<float>& v) {
  float* p = a->cast<float>(true);
  std::copy(v.begin(), v.end(), p);
}

std::vector<std::vector<float>> case_values(const BackendCase& c) {
  std::mt19937 rng(5);
  std::vector<std::vector<float>> values;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    const bool given = i < c.values.size() && !c.values[i].empty();
    values.push_back(given ? c.values[i] : random_values(shape_size(c.shapes[i]), rng, c.lo, c.hi));
  }
  return values;
}

Outcome run_on(const BackendCase& c, const std::vector<std::vector<float>>& values, const Context& ctx, bool accum,
               const RunOptions& options) {
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
  Outcome r;
  for (auto* o : out) r.outputs.push_back(o->data()->to_vector());
  if (!c.backward || !f->has_backward()) return r;
  std::mt19937 rng(11);
  for (size_t o = 0; o < out.size(); ++o) {
    const bool given = o < c.output_grads.size();
    fill(out[o]->grad(), given ? c.output_grads[o] : random_values(out[o]->size(), rng, -1.f, 1.f));
  }
  std::vector<bool> prop(in.size()), acc(in.size(), accum);
  for (size_t i = 0; i < in.size(); ++i) {
    prop[i] = c.grad.empty() || (i < c.grad.size() && c.grad[i]);
    if (accum) in[i]->grad()->fill(0.5);
  }
  f->backward(in, out, prop, acc);
  for (size_t i = 0; i < in.size(); ++i)
    r.grads.push_back(prop[i] ? in[i]->grad()->to_vector() : std::vector<float>{});
  return r;
}

void expect_same(const std::vector<float>& got, const std::vector<float>& cpu, const BackendCase& c,
                 const std::string& what) {
  ASSERT_EQ(got.size(), cpu.size()) << c.op << " " << what;
  int bad = 0;
  for (size_t i = 0; i < cpu.size() && bad < 5; ++i)
    if (!(std::fabs(double(got[i]) - cpu[i]) <= c.atol + c.rtol * std::fabs(double(cpu[i])))) {
      ++bad;
      ADD_FAILURE() << c.op << " " << what << "[" << i << "]: " << c.context << " gives " << got[i]
                    << ", cpu:float gives " << cpu[i];
    }
}

void compare_with_cpu(const BackendCase& c) {
  SCOPED_TRACE(c.op + " on " + c.context + " against cpu:float");
  const Context ctx = parse_context(c.context);
  const auto kernels = OpRegistry::instance().kernels(c.op);
  const std::string type = ctx.uses_half() ? "half" : "float";
  const bool has_kernel = std::find(kernels.begin(), kernels.end(), "cuda:" + type) != kernels.end() ||
                          std::find(kernels.begin(), kernels.end(), "cudnn:" + type) != kernels.end();
  ASSERT_TRUE(has_kernel) << c.op << " has no CUDA kernel for type " << type;
  const auto values = case_values(c);
  for (bool accum : {false, true}) {
    const Outcome cpu = run_on(c, values, cpu_context(), accum), other = run_on(c, values, ctx, accum);
    const std::string mode = accum ? " (accum)" : "";
    ASSERT_EQ(other.outputs.size(), cpu.outputs.size()) << "output count" << mode;
    for (size_t o = 0; o < cpu.outputs.size(); ++o)
      expect_same(other.outputs[o], cpu.outputs[o], c, "output " + std::to_string(o) + mode);
    ASSERT_EQ(other.grads.size(), cpu.grads.size()) << "backward" << mode;
    for (size_t i = 0; i < cpu.grads.size(); ++i)
      expect_same(other.grads[i], cpu.grads[i], c, "grad of input " + std::to_string(i) + mode);
  }
}

}  // namespace nn::test
