// nn::grad: reverse-mode differentiation that emits graph nodes (higher order where ops define grad_graph).
#include "nn/graph/grad.hpp"

#include <unordered_map>

#include "nn/graph/functions.hpp"
#include "nn/ops/op_schema.hpp"

namespace nn {

namespace detail {
// Runs another function's backward as a forward computation (first-order fallback).
std::vector<VariablePtr> backward_as_graph(FunctionNode& fn, const std::vector<VariablePtr>& grad_outputs,
                                           const std::vector<bool>& wanted);
}  // namespace detail

namespace {
VariablePtr constant_like(const Shape& shape, double value) {
  auto v = Variable::create(shape, false);
  v->data()->fill(value);
  return v;
}
}  // namespace

std::vector<VariablePtr> grad(const std::vector<VariablePtr>& outputs, const std::vector<VariablePtr>& inputs,
                              const std::vector<VariablePtr>& grad_outputs) {
  std::unordered_map<Variable*, VariablePtr> grads;
  auto accumulate = [&](Variable* v, const VariablePtr& g) {
    if (!g) return;
    auto it = grads.find(v);
    if (it == grads.end()) {
      grads[v] = g;
    } else {
      it->second = F::add2(it->second, g);
    }
  };
  for (size_t i = 0; i < outputs.size(); ++i) {
    VariablePtr seed = i < grad_outputs.size() ? grad_outputs[i] : nullptr;
    accumulate(outputs[i].get(), seed ? seed : constant_like(outputs[i]->shape(), 1.0));
  }
  auto order = collect_functions(outputs);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    FunctionNode& fn = **it;
    if (!fn.need_grad()) continue;
    auto outs = fn.outputs();
    std::vector<VariablePtr> gouts;
    bool any = false;
    for (auto& o : outs) {
      auto g = grads.find(o.get());
      gouts.push_back(g == grads.end() ? nullptr : g->second);
      any |= gouts.back() != nullptr;
    }
    if (!any) continue;
    std::vector<bool> wanted;
    for (auto& in : fn.inputs()) wanted.push_back(in->need_grad());
    const OpSchema& schema = fn.function().schema();
    std::vector<VariablePtr> gins;
    if (schema.grad_graph) {
      GradGraphArgs args{fn.inputs(), outs, gouts, fn.function().attrs(), fn.function().context()};
      gins = schema.grad_graph(args);
    } else {
      gins = detail::backward_as_graph(fn, gouts, wanted);
    }
    for (size_t i = 0; i < gins.size() && i < fn.inputs().size(); ++i)
      if (wanted[i]) accumulate(fn.inputs()[i].get(), gins[i]);
  }
  std::vector<VariablePtr> result;
  for (auto& in : inputs) {
    auto g = grads.find(in.get());
    result.push_back(g == grads.end() ? constant_like(in->shape(), 0.0) : g->second);
  }
  return result;
}

}  // namespace nn
