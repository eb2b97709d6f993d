// ONNX binary and variadic elementwise operators (numpy or legacy broadcasting) -> nnabla *2 functions,
// Where, Mod, BitShift.
#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {

namespace {

bool is_integer(int32_t t) {
  return t != ::onnx::TensorProto::FLOAT && t != ::onnx::TensorProto::DOUBLE &&
         t != ::onnx::TensorProto::FLOAT16 && t != ::onnx::TensorProto::BFLOAT16;
}

// Operands aligned for a binary op. Opset < 7 with broadcast=1: B's dims placed at `axis` of A.
std::pair<std::string, std::string> operands(ImportContext& ctx, const NodeView& node, bool explicit_broadcast) {
  std::string a = node.input(0), b = node.input(1);
  if (ctx.opset() < 7 && node.get_int("broadcast", 0) != 0) {
    const Shape& as = ctx.shape(a);
    const Shape& bs = ctx.shape(b);
    const int64_t axis = node.has("axis") ? normalize_axis(node.get_int("axis", 0), int64_t(as.size()))
                                          : int64_t(as.size() - bs.size());
    NN_CHECK(axis >= 0 && size_t(axis) + bs.size() <= as.size())
        << "broadcast of " << to_string(bs) << " at axis " << axis << " does not fit " << to_string(as);
    Shape placed(as.size(), 1);
    for (size_t i = 0; i < bs.size(); ++i) placed[size_t(axis) + i] = bs[i];
    b = reshape_to(ctx, b, placed);
  }
  const Shape out = broadcast_shapes(ctx.shape(a), ctx.shape(b));
  // An operand whose length follows the data broadcasts at run time (the functions broadcast as numpy does): an
  // explicit broadcast would fix its import-time length.
  const bool sized = ctx.data_axis(a) >= 0 || ctx.data_axis(b) >= 0;
  if (explicit_broadcast && !sized) return {broadcast_to(ctx, a, out), broadcast_to(ctx, b, out)};
  return {align_rank(ctx, a, int64_t(out.size())), align_rank(ctx, b, int64_t(out.size()))};
}

void binary(ImportContext& ctx, const NodeView& node, const char* type, bool explicit_broadcast) {
  auto [a, b] = operands(ctx, node, explicit_broadcast);
  const int32_t t = ctx.data_type(node.input(0));
  if (std::string(type) == "Div2" && is_integer(t)) {  // integer division truncates toward zero
    const std::string q = ctx.emit1("Div2", {a, b});
    const std::string mag = ctx.emit1("Floor", {ctx.emit1("Abs", {q})});
    ctx.emit1("Mul2", {ctx.emit1("Sign", {q}), mag}, {}, node.output(0));
  } else {
    ctx.emit1(type, {a, b}, {}, node.output(0));
  }
  ctx.set_data_type(node.output(0), t);
}

void import_mod(ImportContext& ctx, const NodeView& node) {
  auto [a, b] = operands(ctx, node, true);
  const bool fmod = node.get_int("fmod", 0) != 0;
  // fmod: a - trunc(a/b)*b; integer mod: a - floor(a/b)*b (sign of the divisor).
  std::string q = ctx.emit1("Div2", {a, b});
  if (fmod) {
    q = ctx.emit1("Mul2", {ctx.emit1("Sign", {q}), ctx.emit1("Floor", {ctx.emit1("Abs", {q})})});
  } else {
    q = ctx.emit1("Floor", {q});
  }
  ctx.emit1("Sub2", {a, ctx.emit1("Mul2", {q, b})}, {}, node.output(0));
  ctx.set_data_type(node.output(0), ctx.data_type(node.input(0)));
}

// Max/Min/Sum/Mean over any number of inputs, broadcast together.
void variadic(ImportContext& ctx, const NodeView& node, const char* type, bool mean) {
  Shape out = ctx.shape(node.input(0));
  for (size_t i = 1; i < node.num_inputs(); ++i) out = broadcast_shapes(out, ctx.shape(node.input(i)));
  if (node.num_inputs() == 1) {
    if (ctx.shape(node.input(0)) == out && ctx.is_constant(node.input(0)))
      return ctx.alias(node.output(0), node.input(0));
    ctx.emit1("Identity", {node.input(0)}, {}, node.output(0));
    return;
  }
  bool sized = false;  // operands whose length follows the data broadcast at run time (see operands())
  for (size_t i = 0; i < node.num_inputs(); ++i) sized = sized || ctx.data_axis(node.input(i)) >= 0;
  const auto operand = [&](size_t i) {
    return sized ? align_rank(ctx, node.input(i), int64_t(out.size())) : broadcast_to(ctx, node.input(i), out);
  };
  std::string acc = operand(0);
  for (size_t i = 1; i < node.num_inputs(); ++i) {
    const bool last = i + 1 == node.num_inputs() && !mean;
    acc = ctx.emit1(type, {acc, operand(i)}, {}, last ? node.output(0) : "");
  }
  if (mean) ctx.emit1("MulScalar", {acc}, {{"val", 1.0 / double(node.num_inputs())}}, node.output(0));
}

void import_where(ImportContext& ctx, const NodeView& node) {
  Shape out = broadcast_shapes(ctx.shape(node.input(0)), ctx.shape(node.input(1)));
  out = broadcast_shapes(out, ctx.shape(node.input(2)));
  ctx.emit1("Where",
            {broadcast_to(ctx, node.input(0), out), broadcast_to(ctx, node.input(1), out),
             broadcast_to(ctx, node.input(2), out)},
            {}, node.output(0));
}

void import_bit_shift(ImportContext& ctx, const NodeView& node) {
  const std::string direction = node.get_string("direction", "");
  NN_CHECK(direction == "LEFT" || direction == "RIGHT") << "direction '" << direction << "' is not LEFT or RIGHT";
  const Shape out = broadcast_shapes(ctx.shape(node.input(0)), ctx.shape(node.input(1)));
  ctx.emit1("BitShift", {broadcast_to(ctx, node.input(0), out), broadcast_to(ctx, node.input(1), out)},
            {{"direction", direction}}, node.output(0));
  ctx.set_data_type(node.output(0), ctx.data_type(node.input(0)));
}

#define NN_BINARY(onnx_op, nnabla_type, since, explicit_broadcast) \
  rules.push_back({onnx_op, since, 17,                             \
                   [](ImportContext& c, const NodeView& n) { binary(c, n, nnabla_type, explicit_broadcast); }})
#define NN_VARIADIC(onnx_op, nnabla_type, since, mean) \
  rules.push_back(                                     \
      {onnx_op, since, 17, [](ImportContext& c, const NodeView& n) { variadic(c, n, nnabla_type, mean); }})

}  // namespace

void add_binary_rules(std::vector<OpRule>& rules) {
  NN_BINARY("Add", "Add2", 1, false);
  NN_BINARY("Sub", "Sub2", 1, false);
  NN_BINARY("Mul", "Mul2", 1, false);
  NN_BINARY("Div", "Div2", 1, false);
  NN_BINARY("Pow", "Pow2", 1, true);
  NN_BINARY("And", "LogicalAnd", 1, true);
  NN_BINARY("Or", "LogicalOr", 1, true);
  NN_BINARY("Xor", "LogicalXor", 1, true);
  NN_BINARY("Equal", "Equal", 1, true);
  NN_BINARY("Less", "Less", 1, true);
  NN_BINARY("Greater", "Greater", 1, true);
  NN_BINARY("LessOrEqual", "LessEqual", 12, true);
  NN_BINARY("GreaterOrEqual", "GreaterEqual", 12, true);
  NN_VARIADIC("Max", "Maximum2", 1, false);
  NN_VARIADIC("Min", "Minimum2", 1, false);
  NN_VARIADIC("Sum", "Add2", 1, false);
  NN_VARIADIC("Mean", "Add2", 1, true);
  rules.push_back({"Where", 9, 17, import_where});
  rules.push_back({"Mod", 10, 17, import_mod});
  rules.push_back({"BitShift", 11, 17, import_bit_shift});
}

}  // namespace nn::formats::onnx
