// Function template methods: arity and shape checks around the *_impl hooks.
#include "nn/graph/function.hpp"

#include "nn/graph/variable.hpp"
#include "nn/ops/op_schema.hpp"

namespace nn {

Function::Function(const OpSchema& schema, const Context& ctx, const Attrs& attrs)
    : schema_(schema), ctx_(ctx), attrs_(schema.complete(attrs)) {}  // the schema fills every default

const std::string& Function::type() const { return schema_.name; }

int Function::num_outputs(const std::vector<Shape>& input_shapes) const {
  int n = 0;
  for (const auto& o : schema_.outputs) n += o.variadic ? 0 : 1;
  return n;
}

void Function::set_subgraphs(std::vector<SubGraph> graphs) {
  NN_INTERNAL_CHECK(graphs.empty()) << type() << " runs no graph of its own, given " << graphs.size();
}

void Function::check_inputs(const Variables& inputs, const char* stage) const {
  const int n = int(inputs.size());
  const int lo = schema_.min_inputs(), hi = schema_.max_inputs();
  NN_CHECK(n >= lo && (hi < 0 || n <= hi)) << type() << " takes "
                                           << (hi == lo ? std::to_string(lo)
                                               : hi < 0 ? "at least " + std::to_string(lo)
                                                        : std::to_string(lo) + " to " + std::to_string(hi))
                                           << " inputs, got " << n;
  for (auto* v : inputs) NN_INTERNAL_CHECK(v != nullptr) << stage << ": null input";
}

void Function::setup(const Variables& inputs, const Variables& outputs) {
  check_inputs(inputs, "setup");
  setup_impl(inputs, outputs);
  input_shapes_.clear();
  for (auto* v : inputs) input_shapes_.push_back(v->shape());
}

void Function::forward(const Variables& inputs, const Variables& outputs) {
  NN_INTERNAL_CHECK(inputs.size() == input_shapes_.size()) << type() << ": forward before setup";
  for (size_t i = 0; i < inputs.size(); ++i)
    NN_CHECK(inputs[i]->shape() == input_shapes_[i])
        << type() << ": input " << i << " has shape " << to_string(inputs[i]->shape()) << " but setup saw "
        << to_string(input_shapes_[i]);
  forward_impl(inputs, outputs);
}

void Function::backward(const Variables& inputs, const Variables& outputs, const std::vector<bool>& propagate_down,
                        const std::vector<bool>& accum) {
  NN_INTERNAL_CHECK(propagate_down.size() == inputs.size() && accum.size() == inputs.size())
      << type() << ": flag count";
  bool any = false;
  for (bool p : propagate_down) any |= p;
  if (!any) return;
  NN_CHECK(has_backward()) << type() << " has no backward (it is not differentiable)";
  backward_impl(inputs, outputs, propagate_down, accum);
}

}  // namespace nn
