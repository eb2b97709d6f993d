// ONNX TopK / QuantizeLinear / DequantizeLinear import: Sort (+Slice), nnabla's QuantizeLinear/DequantizeLinear.
#include "formats/onnx/import/op_rules.hpp"

namespace nn::formats::onnx {
namespace {

// TopK(X, K) (10+: K an input; 1: k attribute): a stable Sort of the axis (ties keep the lower index first,
// as ONNX asks), then the first K of values and indices.
// TopK over a data-sized axis with K = min(c, the axis's length) or K = the length (the run-time size of that
// axis, computed through Shape): a Sort, then a Slice to c, which the engine clamps to the length at each run.
void top_k_of_data_axis(ImportContext& ctx, const NodeView& node, int64_t axis, const Sym& k) {
  const std::string x = node.input(0);
  const Sym length = ctx.dim_symbol(x, axis);
  int64_t keep = -1;  // -1: all
  if (!sym_equal(k, length)) {
    if (k->kind == SymExpr::Kind::kMin && k->args.size() == 2)
      for (size_t i = 0; i < 2; ++i)
        if (sym_is_const(k->args[i]) && sym_equal(k->args[1 - i], length)) keep = k->args[i]->value;
    NN_CHECK_CODE(keep >= 0, ErrorCode::kUnsupported)
        << "K ('" << node.input(1) << "') follows run-time sizes as " << sym_text(k)
        << ", which is neither the length of axis " << axis << " (" << sym_text(length)
        << ") nor the minimum of it and a constant";
  }
  NN_CHECK_CODE(node.get_int("sorted", 1) == 1, ErrorCode::kUnsupported) << "sorted=0 is not supported";
  const bool largest = node.get_int("largest", 1) != 0;
  const bool whole = keep < 0;
  std::vector<std::string> sorted =
      ctx.emit("Sort", {x}, {{"axis", axis}, {"reverse", largest}, {"with_index", true}, {"only_index", false}},
               {whole ? node.output(0) : std::string(), whole ? node.output(1) : std::string()});
  if (!whole) {
    const Shape& xs = ctx.shape(x);
    std::vector<int64_t> start(xs.size(), 0), stop(xs.begin(), xs.end()), step(xs.size(), 1);
    stop[size_t(axis)] = keep;
    for (size_t i = 0; i < 2; ++i)
      if (!node.output(i).empty())
        ctx.emit1("Slice", {sorted[i]}, {{"start", start}, {"stop", stop}, {"step", step}}, node.output(i));
  }
  if (!node.output(1).empty()) ctx.set_data_type(node.output(1), ::onnx::TensorProto::INT64);
}

void import_top_k(ImportContext& ctx, const NodeView& node) {
  const Shape& xs = ctx.shape(node.input(0));
  const int64_t axis = normalize_axis(node.get_int("axis", -1), int64_t(xs.size()));
  if (ctx.opset() >= 10 && ctx.has(node.input(1)))
    if (const SymValues* k = ctx.symbols(node.input(1))) {
      NN_CHECK(k->size() == 1) << "K must hold one value, got " << k->size();
      return top_k_of_data_axis(ctx, node, axis, k->front());
    }
  // K as an input: an initializer or a value computed from shapes (folded at import); one computed from the data
  // would make the output size follow the data, which TopK's Sort + Slice cannot do.
  NN_CHECK_CODE(ctx.opset() < 10 || ctx.is_constant(node.input(1)), ErrorCode::kUnsupported)
      << "K ('" << node.input(1) << "') is known only at run time; give it as an initializer or compute it from "
      << "shapes";
  const int64_t k = ctx.opset() < 10 ? node.get_int("k", 1) : ctx.const_ints(node.input(1)).at(0);
  const int64_t length = xs[size_t(axis)];
  NN_CHECK(k >= 0 && k <= length) << "k " << k << " is out of range for axis length " << length;
  NN_CHECK_CODE(node.get_int("sorted", 1) == 1 || k == 1, ErrorCode::kUnsupported) << "sorted=0 is not supported";
  const bool largest = node.get_int("largest", 1) != 0;
  const bool whole = k == length;
  std::vector<std::string> sorted = ctx.emit(
      "Sort", {node.input(0)}, {{"axis", axis}, {"reverse", largest}, {"with_index", true}, {"only_index", false}},
      {whole ? node.output(0) : std::string(), whole ? node.output(1) : std::string()});
  if (!whole) {
    std::vector<int64_t> start(xs.size(), 0), stop(xs.begin(), xs.end()), step(xs.size(), 1);
    stop[size_t(axis)] = k;
    for (size_t i = 0; i < 2; ++i)
      if (!node.output(i).empty())
        ctx.emit1("Slice", {sorted[i]}, {{"start", start}, {"stop", stop}, {"step", step}}, node.output(i));
  }
  if (!node.output(1).empty()) ctx.set_data_type(node.output(1), ::onnx::TensorProto::INT64);
}

// scale / zero point (scalar, or 1-D along `axis`) reshaped to x's rank for nnabla's broadcasting.
std::string to_x_rank(ImportContext& ctx, const std::string& name, const Shape& xs, int64_t onnx_axis) {
  const Shape& s = ctx.shape(name);
  Shape target(xs.size(), 1);
  if (!s.empty() && shape_size(s) != 1) {
    const int64_t axis = normalize_axis(onnx_axis, int64_t(xs.size()));
    NN_CHECK(s.size() == 1 && s[0] == xs[size_t(axis)])
        << "scale/zero point " << s << " does not match axis " << axis << " of " << xs;
    target[size_t(axis)] = s[0];
  }
  return reshape_to(ctx, name, target);
}

void import_quantize(ImportContext& ctx, const NodeView& node, bool quantize) {
  const Shape& xs = ctx.shape(node.input(0));
  const int64_t axis = node.get_int("axis", 1);  // per-axis scales only
  std::string scale = to_x_rank(ctx, node.input(1), xs, axis);
  std::string zero = node.input(2).empty() ? filled_constant(ctx, Shape(xs.size(), 1), 0.0f)
                                           : to_x_rank(ctx, node.input(2), xs, axis);
  if (!quantize) {
    ctx.emit1("DequantizeLinear", {node.input(0), scale, zero}, {}, node.output(0));
    return;
  }
  // The output type is the zero point's (UINT8 when it is absent).
  const int32_t type = node.input(2).empty() ? ::onnx::TensorProto::UINT8 : ctx.data_type(node.input(2));
  NN_CHECK_CODE(type == ::onnx::TensorProto::INT8 || type == ::onnx::TensorProto::UINT8, ErrorCode::kUnsupported)
      << "zero point type " << type << " is not INT8 or UINT8";
  ctx.emit1("QuantizeLinear", {node.input(0), scale, zero},
            {{"round_mode", std::string("HALF_TO_EVEN")},
             {"narrow_range", false},
             {"dtype", int64_t(type == ::onnx::TensorProto::INT8 ? 1 : 2)}},
            node.output(0));
  ctx.set_data_type(node.output(0), type);
}

}  // namespace

void add_selection_rules(std::vector<OpRule>& rules) {
  rules.push_back({"TopK", 1, 17, import_top_k});
  rules.push_back(
      {"QuantizeLinear", 10, 17, [](ImportContext& c, const NodeView& n) { import_quantize(c, n, true); }});
  rules.push_back(
      {"DequantizeLinear", 10, 17, [](ImportContext& c, const NodeView& n) { import_quantize(c, n, false); }});
}

}  // namespace nn::formats::onnx
