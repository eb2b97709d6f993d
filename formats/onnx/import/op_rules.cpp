// The ONNX import table assembled from the op-family files, and helpers they share.
#include "formats/onnx/import/op_rules.hpp"

#include <algorithm>
#include <map>

#include "nn/core/error.hpp"

namespace nn::formats::onnx {

const std::vector<OpRule>& import_rules() {
  static const std::vector<OpRule> rules = [] {
    std::vector<OpRule> r;
    add_elementwise_rules(r);
    add_binary_rules(r);
    add_nn_rules(r);
    add_pooling_rules(r);
    add_tensor_rules(r);
    add_shape_rules(r);
    add_math_rules(r);
    add_resize_rules(r);
    add_selection_rules(r);
    add_data_sized_rules(r);
    add_control_rules(r);
    add_loop_rules(r);
    add_indexing_rules(r);
    add_layer_norm_rules(r);
    add_recurrent_rules(r);
    add_loss_rules(r);
    return r;
  }();
  return rules;
}

const OpRule* find_import_rule(const std::string& op, int64_t opset) {
  for (const auto& rule : import_rules())
    if (op == rule.op && opset >= rule.since && opset <= rule.until) return &rule;
  return nullptr;
}

int64_t normalize_axis(int64_t axis, int64_t rank, const std::string& what) {
  const int64_t a = axis < 0 ? axis + rank : axis;
  NN_CHECK(a >= 0 && a < std::max<int64_t>(rank, 1))
      << what << " " << axis << " is out of range for rank " << rank;
  return a;
}

std::string reshape_to(ImportContext& ctx, const std::string& name, const Shape& shape,
                       const std::string& output) {
  if (ctx.shape(name) == shape && output.empty()) return name;
  return ctx.emit1("Reshape", {name}, {{"shape", std::vector<int64_t>(shape)}, {"inplace", true}}, output);
}

std::string align_rank(ImportContext& ctx, const std::string& name, int64_t rank) {
  const Shape& s = ctx.shape(name);
  if (int64_t(s.size()) >= rank) return name;
  Shape aligned(size_t(rank) - s.size(), 1);
  aligned.insert(aligned.end(), s.begin(), s.end());
  return reshape_to(ctx, name, aligned);
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    NN_CHECK(da == db || da == 1 || db == 1)
        << "shapes " << to_string(a) << " and " << to_string(b) << " cannot be broadcast";
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::string broadcast_to(ImportContext& ctx, const std::string& name, const Shape& shape) {
  std::string x = align_rank(ctx, name, int64_t(shape.size()));
  if (ctx.shape(x) == shape) return x;
  return ctx.emit1("Broadcast", {x}, {{"shape", std::vector<int64_t>(shape)}});
}

std::string filled_constant(ImportContext& ctx, const Shape& shape, float value) {
  return ctx.constant(shape,
                      std::vector<float>(size_t(ImportContext::checked_constant_size("fill", shape)), value));
}

std::vector<int64_t> ints_input_or(ImportContext& ctx, const NodeView& node, size_t i,
                                   const std::vector<int64_t>& fallback) {
  const std::string name = node.input(i);
  if (name.empty()) return fallback;
  return ctx.const_ints(name);
}

// A value that follows run-time sizes computed when the graph runs, as a (1,) tensor: each size is the length of a
// tensor of that size (ImportContext::ruler), and the sums, products, minima, maxima and comparisons of them the
// engine's functions.
std::string size_tensor(ImportContext& ctx, const Sym& s) {
  using K = SymExpr::Kind;
  if (s->kind == K::kConst) return ctx.constant({1}, {float(s->value)});
  if (s->kind == K::kAtom) return ctx.emit1("Shape", {ctx.ruler(s, "the condition")});
  static const std::map<K, const char*> kFunctions = {
      {K::kAdd, "Add2"}, {K::kMul, "Mul2"}, {K::kMin, "Minimum2"}, {K::kMax, "Maximum2"}, {K::kEq, "Equal"}};
  auto f = kFunctions.find(s->kind);
  NN_CHECK_CODE(f != kFunctions.end() && !s->args.empty(), ErrorCode::kUnsupported)
      << "the condition follows run-time sizes as " << sym_text(s) << ", which cannot be computed";
  std::string r = size_tensor(ctx, s->args[0]);
  for (size_t i = 1; i < s->args.size(); ++i) r = ctx.emit1(f->second, {r, size_tensor(ctx, s->args[i])});
  return r;
}

std::string run_time_values(ImportContext& ctx, const std::string& name) {
  const SymValues* sym = ctx.symbols(name);
  if (!sym) return name;
  std::vector<std::string> parts;
  for (const Sym& s : *sym) parts.push_back(size_tensor(ctx, s));
  const std::string joined =
      parts.size() == 1 ? parts[0] : ctx.emit1("Concatenate", parts, {{"axis", int64_t(0)}});
  return reshape_to(ctx, joined, ctx.shape(name));
}

}  // namespace nn::formats::onnx
