// ONNX If: a condition known at import takes its branch; one that says whether a data-sized tensor is empty takes
// the else branch when that branch already gives the then branch's (empty) result at that size; one computed
// from the data becomes nncli's If, which runs the branch it chooses (ops/special/if_else.cpp).
#include <map>

#include "formats/onnx/common/onnx_model_file.hpp"
#include "formats/onnx/import/import_subgraph.hpp"
#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {
namespace {

// Imports a branch inline (its nodes read the outer tensors by name) and returns its output names.
std::vector<std::string> import_branch(ImportContext& ctx, const NodeView& node, const ::onnx::GraphProto& g) {
  for (const auto& init : g.initializer()) {
    TensorData t = read_tensor(init, ctx.base_dir());
    ctx.add_constant(init.name(), t.shape, std::move(t.values), std::move(t.ints), t.data_type);
  }
  with_context(g.name().empty() ? std::string("branch") : "branch '" + g.name() + "'",
               [&] { import_nodes(ctx, g); });
  std::vector<std::string> outs;
  for (const auto& o : g.output()) outs.push_back(o.name());
  NN_CHECK(outs.size() == node.num_outputs())
      << "a branch has " << outs.size() << " outputs, the node " << node.num_outputs();
  return outs;
}

void take(ImportContext& ctx, const NodeView& node, const std::vector<std::string>& outs) {
  for (size_t j = 0; j < outs.size(); ++j) {
    ctx.alias(node.output(j), outs[j]);
    ctx.set_data_type(node.output(j), ctx.data_type(outs[j]));
  }
}

// Whether then-output `t` (a constant) is what else-output `e` holds whenever `empty` is 0: `t` has no elements,
// and `e` has the same shape but for its data-sized axis, whose length is 0 whenever `empty` is.
std::string differs_when_empty(const ImportContext& ctx, const std::string& t, const std::string& e,
                               const Sym& empty) {
  if (!ctx.is_constant(t) || ctx.symbols(t)) return "then-output '" + t + "' is not a constant";
  const Shape& ts = ctx.shape(t);
  const Shape& es = ctx.shape(e);
  const int64_t axis = ctx.data_axis(e);
  if (shape_size(ts) != 0 || ts.size() != es.size() || axis < 0 || ts[size_t(axis)] != 0)
    return "then-output '" + t + "' " + to_string(ts) + " is not else-output '" + e + "' " + to_string(es) +
           " emptied along a data-sized axis";
  for (size_t d = 0; d < ts.size(); ++d)
    if (int64_t(d) != axis && ts[d] != es[d])
      return "then-output '" + t + "' " + to_string(ts) + " and else-output '" + e + "' " + to_string(es) +
             " differ in dim " + std::to_string(d);
  if (!zero_whenever_zero(empty, ctx.dim_symbol(e, axis), ctx.atom_bounds()))
    return "else-output '" + e + "' (length " + sym_text(ctx.dim_symbol(e, axis)) + ") need not be empty when " +
           sym_text(empty) + " is 0";
  return "";
}

// Imports both branches inline; the else branch is taken when it gives the then branch's (empty) result whenever
// `empty` is 0. Returns false (the branches' functions then left unread) otherwise.
bool else_covers_then(ImportContext& ctx, const NodeView& node, const Sym& empty) {
  const std::vector<std::string> then_outs = import_branch(ctx, node, graph_attribute(node, "then_branch"));
  const std::vector<std::string> else_outs = import_branch(ctx, node, graph_attribute(node, "else_branch"));
  for (size_t j = 0; j < then_outs.size(); ++j)
    if (!differs_when_empty(ctx, then_outs[j], else_outs[j], empty).empty()) return false;
  take(ctx, node, else_outs);
  return true;
}

// A condition computed from the data (`cond`): nncli's If runs the branch it chooses, each branch a sub-network.
// An output whose branches differ in a dim (or is data-sized in one) has that axis sized at run time.
void import_run_time_if(ImportContext& ctx, const NodeView& node, const std::string& cond) {
  const ImportedSubGraph t = import_subgraph(ctx, graph_attribute(node, "then_branch"), {});
  const ImportedSubGraph e = import_subgraph(ctx, graph_attribute(node, "else_branch"), {});
  const size_t n = node.num_outputs();
  NN_CHECK(t.output_types.size() == n && e.output_types.size() == n)
      << "the branches have " << t.output_types.size() << " and " << e.output_types.size() << " outputs, the node "
      << n;
  std::vector<std::string> inputs{cond};
  inputs.insert(inputs.end(), t.outer_inputs.begin(), t.outer_inputs.end());
  inputs.insert(inputs.end(), e.outer_inputs.begin(), e.outer_inputs.end());
  std::vector<std::string> outputs;
  for (size_t j = 0; j < n; ++j) outputs.push_back(node.output(j));
  outputs =
      ctx.emit("If", inputs, {{"num_then_inputs", int64_t(t.outer_inputs.size())}, {"num_outputs", int64_t(n)}},
               outputs, /*fold=*/false, {t.net, e.net});
  for (size_t j = 0; j < n; ++j) {
    const Shape &ts = t.output_shapes[j], &es = e.output_shapes[j];
    NN_CHECK_CODE(ts.size() == es.size(), ErrorCode::kUnsupported)
        << "output " << j << " has rank " << ts.size() << " in the then branch and " << es.size()
        << " in the else branch; branches of different ranks are not supported";
    int64_t axis = t.output_data_axes[j] >= 0 ? t.output_data_axes[j] : e.output_data_axes[j];
    for (size_t d = 0; d < ts.size() && axis < 0; ++d)
      if (ts[d] != es[d]) axis = int64_t(d);
    ctx.set_data_type(outputs[j], t.output_types[j]);
    if (axis >= 0) ctx.set_data_axis(outputs[j], axis, ctx.fresh_size());
  }
}

void import_if(ImportContext& ctx, const NodeView& node) {
  const std::string cond = node.input(0);
  if (!ctx.is_constant(cond)) return import_run_time_if(ctx, node, cond);
  const SymValues* sym = ctx.symbols(cond);
  if (!sym) {
    const std::vector<float> c = ctx.const_values(cond);
    NN_CHECK(c.size() == 1) << "condition must hold one value, got " << c.size();
    take(ctx, node, import_branch(ctx, node, graph_attribute(node, c[0] != 0 ? "then_branch" : "else_branch")));
    return;
  }
  // cond = (E == 0): the then branch runs when E, a product/sum of run-time sizes, is 0.
  const Sym c = sym->front();
  Sym empty;
  if (c->kind == SymExpr::Kind::kEq && c->args.size() == 2)
    for (size_t i = 0; i < 2; ++i)
      if (sym_is_const(c->args[i]) && c->args[i]->value == 0) empty = c->args[1 - i];
  // The else branch alone when it gives the then branch's result whenever the condition holds (an empty one);
  // else both, the condition computed when the graph runs.
  if (empty && else_covers_then(ctx, node, empty)) return;
  import_run_time_if(ctx, node, size_tensor(ctx, c));
}

}  // namespace

void add_control_rules(std::vector<OpRule>& rules) { rules.push_back({"If", 1, 17, import_if}); }

}  // namespace nn::formats::onnx
