// ONNX unary and activation operators -> nnabla elementwise functions; Cast and CastLike (float values
// rounded to FLOAT16 when cast to it).
#include <cmath>
#include <limits>

#include "formats/onnx/common/onnx_model_file.hpp"
#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {

namespace {

void unary(ImportContext& ctx, const NodeView& node, const char* type, const Attrs& attrs = {}) {
  ctx.emit1(type, {node.input(0)}, attrs, node.output(0));
}

void import_identity(ImportContext& ctx, const NodeView& node) {
  if (ctx.is_constant(node.input(0))) {
    ctx.alias(node.output(0), node.input(0));
    return;
  }
  unary(ctx, node, "Identity");
}

}  // namespace

bool cast_keeps_values(int32_t from, int32_t to) {
  const auto half = [](int32_t t) {
    return t == ::onnx::TensorProto::FLOAT16 || t == ::onnx::TensorProto::BFLOAT16;
  };
  const auto wide = [](int32_t t) { return t == ::onnx::TensorProto::FLOAT || t == ::onnx::TensorProto::DOUBLE; };
  if (from == ::onnx::TensorProto::STRING || to == ::onnx::TensorProto::STRING) return false;
  if (half(to)) return from == to;
  return !half(from) || wide(to);
}

namespace {

// Float values rounded to the nearest FLOAT16 value (kept as float; overflow to +-inf), into `output`.
std::string round_to_half(ImportContext& ctx, const std::string& x, const std::string& output) {
  // Normal range: Veltkamp's split keeps the 11 leading significant bits, rounded to nearest (x * 8193 and
  // the two subtractions are exact float32 operations, each its own function).
  const std::string t = ctx.emit1("MulScalar", {x}, {{"val", 8193.0}});
  const std::string hi = ctx.emit1("Sub2", {t, ctx.emit1("Sub2", {t, x})});
  const std::string clamped =
      ctx.emit1("MinimumScalar", {ctx.emit1("MaximumScalar", {hi}, {{"val", -65504.0}})}, {{"val", 65504.0}});
  // Subnormal range (|x| < 2^-14): multiples of 2^-24, by adding and removing 0.75 (whose ulp is 2^-24).
  const std::string sub = ctx.emit1("AddScalar", {ctx.emit1("AddScalar", {x}, {{"val", 0.75}})}, {{"val", -0.75}});
  const std::string a = ctx.emit1("Abs", {x});
  const std::string overflow = ctx.emit1("GreaterEqualScalar", {a}, {{"val", 65520.0}});
  const std::string infinity = ctx.emit1("MulScalar", {ctx.emit1("Sign", {x})}, {{"val", double(INFINITY)}});
  const std::string normal = ctx.emit1("Where", {overflow, infinity, clamped});
  return ctx.emit1("Where", {ctx.emit1("LessScalar", {a}, {{"val", 6.103515625e-05}}), sub, normal}, {}, output);
}

// Float values cast to an integer type keep their integer part (ONNX truncates toward zero).
bool float_to_integer(int32_t from, int32_t to) {
  const auto floating = [](int32_t t) {
    return t == ::onnx::TensorProto::FLOAT || t == ::onnx::TensorProto::DOUBLE ||
           t == ::onnx::TensorProto::FLOAT16 || t == ::onnx::TensorProto::BFLOAT16;
  };
  return floating(from) && !floating(to) && to != ::onnx::TensorProto::BOOL && to != ::onnx::TensorProto::STRING;
}
std::string truncate_toward_zero(ImportContext& ctx, const std::string& x, const std::string& output) {
  return ctx.emit1("Mul2", {ctx.emit1("Sign", {x}), ctx.emit1("Floor", {ctx.emit1("Abs", {x})})}, {}, output);
}

void import_cast(ImportContext& ctx, const NodeView& node) {
  // As nnabla's importer: Cast is removed, consumers read its input (values stay float), except that float values
  // cast to integers lose their fraction. Casts that narrow float precision cannot be expressed that way (half
  // floats widen exactly).
  const int64_t to = node.get_int("to", 1);
  const int32_t from = ctx.data_type(node.input(0));
  if (to == ::onnx::TensorProto::FLOAT16 &&
      (from == ::onnx::TensorProto::FLOAT || from == ::onnx::TensorProto::DOUBLE)) {
    round_to_half(ctx, node.input(0), node.output(0));  // float values rounded to the nearest half float
    ctx.set_data_type(node.output(0), int32_t(to));
    return;
  }
  NN_CHECK_CODE(cast_keeps_values(from, int32_t(to)), ErrorCode::kUnsupported)
      << "Cast from " << from << " to " << to << " changes the precision; not supported";
  if (float_to_integer(from, int32_t(to)) && !ctx.symbols(node.input(0)))  // (a box's corners as pixel indices)
    truncate_toward_zero(ctx, node.input(0), node.output(0));
  else
    ctx.alias(node.output(0), node.input(0));
  ctx.set_data_type(node.output(0), int32_t(node.get_int("to", 1)));
}

// CastLike: Cast to the type of the second input (values stay float, as Cast's import).
void import_cast_like(ImportContext& ctx, const NodeView& node) {
  const int32_t from = ctx.data_type(node.input(0)), to = ctx.data_type(node.input(1));
  const bool to_half = to == ::onnx::TensorProto::FLOAT16 &&
                       (from == ::onnx::TensorProto::FLOAT || from == ::onnx::TensorProto::DOUBLE);
  NN_CHECK_CODE(to_half || cast_keeps_values(from, to), ErrorCode::kUnsupported)
      << "CastLike from " << data_type_name(from) << " to " << data_type_name(to)
      << " changes the precision; not supported";
  const bool from_float = from == ::onnx::TensorProto::FLOAT || from == ::onnx::TensorProto::DOUBLE;
  if (to == ::onnx::TensorProto::FLOAT16 && from_float) {
    round_to_half(ctx, node.input(0), node.output(0));
  } else if (float_to_integer(from, to)) {
    truncate_toward_zero(ctx, node.input(0), node.output(0));
  } else {
    ctx.emit1("Identity", {node.input(0)}, {}, node.output(0));
  }
  ctx.set_data_type(node.output(0), to);
}

// ONNX rounds halves to even; nnabla's Round rounds them away from zero.
void import_round(ImportContext& ctx, const NodeView& node) {
  const std::string x = node.input(0);
  const std::string f = ctx.emit1("Floor", {x});
  const std::string tie = ctx.emit1("EqualScalar", {ctx.emit1("Sub2", {x, f})}, {{"val", 0.5}});
  const std::string half_f = ctx.emit1("Floor", {ctx.emit1("MulScalar", {f}, {{"val", 0.5}})});
  const std::string odd = ctx.emit1("Sub2", {f, ctx.emit1("MulScalar", {half_f}, {{"val", 2.0}})});
  const std::string even = ctx.emit1("Add2", {f, odd});
  ctx.emit1("Where", {tie, even, ctx.emit1("Round", {x})}, {}, node.output(0));
}

void import_is_inf(ImportContext& ctx, const NodeView& node) {
  const bool neg = node.get_int("detect_negative", 1) != 0, pos = node.get_int("detect_positive", 1) != 0;
  if (neg && pos) return unary(ctx, node, "IsInf");
  if (!neg && !pos) {
    const std::string zeros = filled_constant(ctx, ctx.shape(node.input(0)), 0.0f);
    ctx.alias(node.output(0), zeros);
    return;
  }
  const double inf = std::numeric_limits<double>::infinity();
  unary(ctx, node, "EqualScalar", {{"val", pos ? inf : -inf}});
}

void import_leaky_relu(ImportContext& ctx, const NodeView& node) {
  unary(ctx, node, "LeakyReLU", {{"alpha", double(node.get_float("alpha", 0.01f))}});
}

void import_elu(ImportContext& ctx, const NodeView& node) {
  unary(ctx, node, "ELU", {{"alpha", double(node.get_float("alpha", 1.0f))}});
}

void import_selu(ImportContext& ctx, const NodeView& node) {
  unary(ctx, node, "SELU",
        {{"alpha", double(node.get_float("alpha", 1.67326319217681884765625f))},
         {"scale", double(node.get_float("gamma", 1.05070102214813232421875f))}});
}

void import_prelu(ImportContext& ctx, const NodeView& node) {
  const std::string x = node.input(0), slope = node.input(1);
  const Shape& xs = ctx.shape(x);
  const Shape& ss = ctx.shape(slope);
  if (xs.size() >= 2 && ss.size() == 1 && (ss[0] == xs[1] || ss[0] == 1)) {
    ctx.emit1("PReLU", {x, slope}, {{"base_axis", int64_t(1)}}, node.output(0));
    return;
  }
  // General broadcasting slope: relu(x) + slope * min(x, 0).
  const std::string pos = ctx.emit1("ReLU", {x});
  const std::string neg = ctx.emit1("MinimumScalar", {x}, {{"val", 0.0}});
  const int64_t rank = std::max(int64_t(xs.size()), int64_t(ss.size()));
  const std::string scaled = ctx.emit1("Mul2", {align_rank(ctx, neg, rank), align_rank(ctx, slope, rank)});
  ctx.emit1("Add2", {align_rank(ctx, pos, rank), scaled}, {}, node.output(0));
}

void import_hard_sigmoid(ImportContext& ctx, const NodeView& node) {
  const float alpha = node.get_float("alpha", 0.2f), beta = node.get_float("beta", 0.5f);
  if (alpha == 0.2f && beta == 0.5f) return unary(ctx, node, "HardSigmoid");
  std::string y = ctx.emit1("MulScalar", {node.input(0)}, {{"val", double(alpha)}});
  y = ctx.emit1("AddScalar", {y}, {{"val", double(beta)}});
  y = ctx.emit1("MinimumScalar", {y}, {{"val", 1.0}});
  ctx.emit1("MaximumScalar", {y}, {{"val", 0.0}}, node.output(0));
}

void import_hard_swish(ImportContext& ctx, const NodeView& node) {
  std::string y = ctx.emit1("MulScalar", {node.input(0)}, {{"val", 1.0 / 6.0}});
  y = ctx.emit1("AddScalar", {y}, {{"val", 0.5}});
  y = ctx.emit1("MinimumScalar", {y}, {{"val", 1.0}});
  y = ctx.emit1("MaximumScalar", {y}, {{"val", 0.0}});
  ctx.emit1("Mul2", {node.input(0), y}, {}, node.output(0));
}

void import_thresholded_relu(ImportContext& ctx, const NodeView& node) {
  const std::string mask =
      ctx.emit1("GreaterScalar", {node.input(0)}, {{"val", double(node.get_float("alpha", 1.0f))}});
  ctx.emit1("Mul2", {node.input(0), mask}, {}, node.output(0));
}

void import_celu(ImportContext& ctx, const NodeView& node) {
  const double alpha = node.get_float("alpha", 1.0f);
  std::string e = ctx.emit1("MulScalar", {node.input(0)}, {{"val", 1.0 / alpha}});
  e = ctx.emit1("Exp", {e});
  e = ctx.emit1("AddScalar", {e}, {{"val", -1.0}});
  e = ctx.emit1("MulScalar", {e}, {{"val", alpha}});
  e = ctx.emit1("MinimumScalar", {e}, {{"val", 0.0}});
  const std::string pos = ctx.emit1("ReLU", {node.input(0)});
  ctx.emit1("Add2", {pos, e}, {}, node.output(0));
}

void clip_with(ImportContext& ctx, const NodeView& node, bool has_min, double lo, bool has_max, double hi) {
  std::string y = node.input(0);
  if (!has_min && !has_max) return unary(ctx, node, "Identity");
  if (has_min) y = ctx.emit1("MaximumScalar", {y}, {{"val", lo}}, has_max ? "" : node.output(0));
  if (has_max) ctx.emit1("MinimumScalar", {y}, {{"val", hi}}, node.output(0));
}

void import_clip6(ImportContext& ctx, const NodeView& node) {
  clip_with(ctx, node, node.has("min"), node.get_float("min", 0), node.has("max"), node.get_float("max", 0));
}

void import_clip11(ImportContext& ctx, const NodeView& node) {
  const std::string lo = node.input(1), hi = node.input(2);
  clip_with(ctx, node, !lo.empty(), lo.empty() ? 0.0 : ctx.const_values(lo).at(0), !hi.empty(),
            hi.empty() ? 0.0 : ctx.const_values(hi).at(0));
}

void import_shrink(ImportContext& ctx, const NodeView& node) {
  const double lambd = node.get_float("lambd", 0.5f), bias = node.get_float("bias", 0.0f);
  const std::string x = node.input(0);
  const std::string above = ctx.emit1("GreaterScalar", {x}, {{"val", lambd}});
  const std::string below = ctx.emit1("LessScalar", {x}, {{"val", -lambd}});
  const std::string hi = ctx.emit1("Mul2", {ctx.emit1("AddScalar", {x}, {{"val", -bias}}), above});
  const std::string lo = ctx.emit1("Mul2", {ctx.emit1("AddScalar", {x}, {{"val", bias}}), below});
  ctx.emit1("Add2", {hi, lo}, {}, node.output(0));
}

#define NN_UNARY(onnx_op, nnabla_type, since) \
  rules.push_back({onnx_op, since, 17, [](ImportContext& c, const NodeView& n) { unary(c, n, nnabla_type); }})
#define NN_UNARY_ARG(onnx_op, nnabla_type, since, value)                         \
  rules.push_back({onnx_op, since, 17, [](ImportContext& c, const NodeView& n) { \
                     unary(c, n, nnabla_type, {{"val", value}});                 \
                   }})

}  // namespace

void add_elementwise_rules(std::vector<OpRule>& rules) {
  NN_UNARY("Abs", "Abs", 1);
  NN_UNARY("Exp", "Exp", 1);
  NN_UNARY("Log", "Log", 1);
  NN_UNARY("Sigmoid", "Sigmoid", 1);
  NN_UNARY("Tanh", "Tanh", 1);
  NN_UNARY("Ceil", "Ceil", 1);
  NN_UNARY("Floor", "Floor", 1);
  NN_UNARY("Relu", "ReLU", 1);
  NN_UNARY("Softsign", "SoftSign", 1);
  NN_UNARY("Softplus", "SoftPlus", 1);
  NN_UNARY("Not", "LogicalNot", 1);
  NN_UNARY("Acos", "ACos", 7);
  NN_UNARY("Asin", "ASin", 7);
  NN_UNARY("Atan", "ATan", 7);
  NN_UNARY("Cos", "Cos", 7);
  NN_UNARY("Sin", "Sin", 7);
  NN_UNARY("Tan", "Tan", 7);
  NN_UNARY("Acosh", "ACosh", 9);
  NN_UNARY("Asinh", "ASinh", 9);
  NN_UNARY("Atanh", "ATanh", 9);
  NN_UNARY("Cosh", "Cosh", 9);
  NN_UNARY("Sinh", "Sinh", 9);
  rules.push_back({"Sign", 9, 17, [](ImportContext& c, const NodeView& n) {
                     unary(c, n, "Sign", {{"alpha", 0.0}});
                   }});
  NN_UNARY("IsNaN", "IsNaN", 9);
  NN_UNARY("Erf", "Erf", 9);
  rules.push_back({"Round", 11, 17, import_round});
  NN_UNARY_ARG("Neg", "MulScalar", 1, -1.0);
  NN_UNARY_ARG("Reciprocal", "RDivScalar", 1, 1.0);
  NN_UNARY_ARG("Sqrt", "PowScalar", 1, 0.5);
  rules.push_back({"Identity", 1, 17, import_identity});
  rules.push_back({"Cast", 1, 17, import_cast});
  rules.push_back({"IsInf", 10, 17, import_is_inf});
  rules.push_back({"LeakyRelu", 1, 17, import_leaky_relu});
  rules.push_back({"Elu", 1, 17, import_elu});
  rules.push_back({"Selu", 1, 17, import_selu});
  rules.push_back({"PRelu", 1, 17, import_prelu});
  rules.push_back({"HardSigmoid", 1, 17, import_hard_sigmoid});
  rules.push_back({"HardSwish", 14, 17, import_hard_swish});
  rules.push_back({"ThresholdedRelu", 10, 17, import_thresholded_relu});
  rules.push_back({"Celu", 12, 17, import_celu});
  rules.push_back({"Clip", 1, 10, import_clip6});
  rules.push_back({"Clip", 11, 17, import_clip11});
  rules.push_back({"Shrink", 9, 17, import_shrink});
  rules.push_back({"CastLike", 15, 17, import_cast_like});
}

}  // namespace nn::formats::onnx
