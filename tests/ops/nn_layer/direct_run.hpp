// Runs one op directly (setup, forward, backward) for checks the op tester cannot express: straight-through
// gradients and comparisons between code paths.
#pragma once
#include <string>
#include <vector>

#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

namespace nn::test {

struct Outcome {
  std::vector<std::vector<float>> data, grad;  // every input after forward + backward
  std::vector<float> y;
};

// Runs forward, then backward with output grad g (accum on every input); input grads start as `prefill`.
inline Outcome run_direct(const std::string& type, const nn::Attrs& attrs, const std::vector<RefArray>& inputs,
                          const std::vector<double>& g, const std::vector<bool>& prop, bool accum, float prefill) {
  auto f = nn::OpRegistry::instance().create(type, attrs, nn::cpu_context());
  std::vector<nn::VariablePtr> in;
  nn::Variables raw;
  for (const auto& a : inputs) {
    auto v = nn::Variable::create(a.shape, true);
    float* p = v->data()->cast<float>(true);
    for (size_t i = 0; i < a.data.size(); ++i) p[i] = float(a.data[i]);
    float* gp = v->grad()->cast<float>(true);
    for (size_t i = 0; i < a.data.size(); ++i) gp[i] = prefill;
    in.push_back(v);
    raw.push_back(v.get());
  }
  auto y = nn::Variable::create();
  f->setup(raw, {y.get()});
  f->forward(raw, {y.get()});
  float* gy = y->grad()->cast<float>(true);
  for (size_t i = 0; i < g.size(); ++i) gy[i] = float(g[i]);
  f->backward(raw, {y.get()}, prop, std::vector<bool>(inputs.size(), accum));
  Outcome o;
  o.y = y->data()->to_vector();
  for (auto& v : in) {
    o.data.push_back(v->data()->to_vector());
    o.grad.push_back(v->grad()->to_vector());
  }
  return o;
}

}  // namespace nn::test
