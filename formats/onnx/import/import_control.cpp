// ONNX If: a condition known at import takes its branch; one that says whether a data-sized tensor is empty takes
// the else branch when that branch already gives the then branch's (empty) result at that size.
#include "formats/onnx/common/onnx_model_file.hpp"
#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {
namespace {

const ::onnx::GraphProto& branch(const NodeView& node, const std::string& name) {
  for (const auto& a : node.proto().attribute())
    if (a.name() == name && a.has_g()) return a.g();
  NN_FAIL(ErrorCode::kInvalid) << "If without a " << name << " graph";
}

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

void import_if(ImportContext& ctx, const NodeView& node) {
  const std::string cond = node.input(0);
  NN_CHECK_CODE(ctx.is_constant(cond), ErrorCode::kUnsupported)
      << "condition ('" << cond << "') is computed from the data; If is imported only when its condition is "
      << "known at import or says whether a data-sized tensor is empty";
  const SymValues* sym = ctx.symbols(cond);
  if (!sym) {
    const std::vector<float> c = ctx.const_values(cond);
    NN_CHECK(c.size() == 1) << "condition must hold one value, got " << c.size();
    take(ctx, node, import_branch(ctx, node, branch(node, c[0] != 0 ? "then_branch" : "else_branch")));
    return;
  }
  // cond = (E == 0): the then branch runs when E, a product/sum of run-time sizes, is 0.
  const Sym c = sym->front();
  Sym empty;
  if (c->kind == SymExpr::Kind::kEq && c->args.size() == 2)
    for (size_t i = 0; i < 2; ++i)
      if (sym_is_const(c->args[i]) && c->args[i]->value == 0) empty = c->args[1 - i];
  NN_CHECK_CODE(empty, ErrorCode::kUnsupported) << "condition ('" << cond << "') follows run-time sizes as "
                                                << sym_text(c) << "; only a test that a size is 0 is supported";
  const std::vector<std::string> then_outs = import_branch(ctx, node, branch(node, "then_branch"));
  const std::vector<std::string> else_outs = import_branch(ctx, node, branch(node, "else_branch"));
  for (size_t j = 0; j < then_outs.size(); ++j) {
    const std::string why = differs_when_empty(ctx, then_outs[j], else_outs[j], empty);
    NN_CHECK_CODE(why.empty(), ErrorCode::kUnsupported)
        << "the branches are chosen at run time (condition " << sym_text(c) << ") and " << why
        << "; choosing a branch at run time is not supported";
  }
  take(ctx, node, else_outs);
}

}  // namespace

void add_control_rules(std::vector<OpRule>& rules) { rules.push_back({"If", 1, 17, import_if}); }

}  // namespace nn::formats::onnx
