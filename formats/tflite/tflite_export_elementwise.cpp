// TFLite export rules for element-wise functions: activations, two-input arithmetic, scalar arithmetic.
#include "formats/tflite/tflite_exporter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::tflite_export {
namespace {

using tflite_io::BuiltinOp;

// Same order in, same order out.
void unary(Exporter& e, const ir::Function& f, BuiltinOp op, tflite::BuiltinOptionsUnion opts = {}) {
  Value v = e.value(f.inputs.at(0));
  int yt = e.define(f.outputs.at(0), v.perm);
  e.g().op(op, {v.tensor}, {yt}, std::move(opts));
}

Rule unary_rule(BuiltinOp op) {
  return [op](Exporter& e, const ir::Function& f) { unary(e, f, op); };
}

void emit_leaky_relu(Exporter& e, const ir::Function& f) {
  tflite::LeakyReluOptionsT o;
  o.alpha = float(f.attrs.get_float("alpha", 0.1));
  tflite::BuiltinOptionsUnion opts;
  opts.Set(o);
  unary(e, f, BuiltinOp::LEAKY_RELU, std::move(opts));
}

void emit_elu(Exporter& e, const ir::Function& f) {
  NN_CHECK(f.attrs.get_float("alpha", 1.0) == 1.0) << "TFLite ELU has alpha 1 only";
  unary(e, f, BuiltinOp::ELU);
}

// Identity and Dropout (inference) pass their input on.
void emit_pass(Exporter& e, const ir::Function& f) { e.alias(f.outputs.at(0), e.value(f.inputs.at(0))); }

tflite::BuiltinOptionsUnion arith_options(BuiltinOp op) {
  tflite::BuiltinOptionsUnion u;
  switch (op) {
    case BuiltinOp::ADD: u.Set(tflite::AddOptionsT{}); break;
    case BuiltinOp::SUB: u.Set(tflite::SubOptionsT{}); break;
    case BuiltinOp::MUL: u.Set(tflite::MulOptionsT{}); break;
    case BuiltinOp::DIV: u.Set(tflite::DivOptionsT{}); break;
    default: u.Set(tflite::MaximumMinimumOptionsT{}); break;
  }
  return u;
}

// Two inputs of the same rank (nnabla broadcasts size-1 axes): both in the order of the non-constant one.
void binary(Exporter& e, const ir::Function& f, BuiltinOp op) {
  const std::string& a = f.inputs.at(0);
  const std::string& b = f.inputs.at(1);
  NN_CHECK(e.shape(a).size() == e.shape(b).size())
      << "inputs of rank " << e.shape(a).size() << " and " << e.shape(b).size() << " are not supported";
  Perm p = e.is_parameter(a) ? e.value(b).perm : e.value(a).perm;
  int at = e.in_order(a, p), bt = e.in_order(b, p);
  int yt = e.define(f.outputs.at(0), p);
  e.g().op(op, {at, bt}, {yt}, arith_options(op));
}

Rule binary_rule(BuiltinOp op) {
  return [op](Exporter& e, const ir::Function& f) { binary(e, f, op); };
}

// x op val with a scalar constant; RSubScalar / RDivScalar put the constant first.
void scalar(Exporter& e, const ir::Function& f, BuiltinOp op, bool constant_first) {
  Value v = e.value(f.inputs.at(0));
  float val = float(f.attrs.get_float("val", op == BuiltinOp::MUL || op == BuiltinOp::DIV ? 1.0 : 0.0));
  int ct = e.g().const_float(e.fresh(f.name + "/val"), {}, {val});
  int yt = e.define(f.outputs.at(0), v.perm);
  std::vector<int> ins = constant_first ? std::vector<int>{ct, v.tensor} : std::vector<int>{v.tensor, ct};
  e.g().op(op, ins, {yt}, arith_options(op));
}

Rule scalar_rule(BuiltinOp op, bool constant_first = false) {
  return [op, constant_first](Exporter& e, const ir::Function& f) { scalar(e, f, op, constant_first); };
}

void emit_pow_scalar(Exporter& e, const ir::Function& f) {
  double val = f.attrs.get_float("val", 1.0);
  Value v = e.value(f.inputs.at(0));
  int yt = e.define(f.outputs.at(0), v.perm);
  if (val == 2.0) {
    e.g().op(BuiltinOp::MUL, {v.tensor, v.tensor}, {yt}, arith_options(BuiltinOp::MUL));
  } else {
    NN_CHECK(val == 0.5) << "PowScalar with val " << val << " is not supported (2 and 0.5 are)";
    e.g().op(BuiltinOp::SQRT, {v.tensor}, {yt}, {});
  }
}

// PReLU: the slope (one per channel at base_axis, or one) broadcast in the input's TFLite order.
void emit_prelu(Exporter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  const Shape& xs = e.shape(x);
  const int64_t b = f.attrs.get_int("base_axis", 1);
  const std::vector<float>& slope = e.parameter(f.inputs.at(1)).data;
  Value v = e.value(x);
  Shape as(xs.size(), 1);
  if (slope.size() != 1) {
    NN_CHECK(b >= 0 && b < int64_t(xs.size()) && int64_t(slope.size()) == xs[size_t(b)])
        << "slope of " << slope.size() << " values does not match input " << xs << " at base_axis " << b;
    as[size_t(b)] = xs[size_t(b)];
  }
  int at = e.g().const_float(e.fresh(f.inputs[1]), permute(as, v.perm), slope);
  int yt = e.define(f.outputs.at(0), v.perm);
  e.g().op(BuiltinOp::PRELU, {v.tensor, at}, {yt}, {});
}

}  // namespace

void add_elementwise_rules(std::map<std::string, Rule>& rules) {
  rules["ReLU"] = unary_rule(BuiltinOp::RELU);
  rules["ReLU6"] = unary_rule(BuiltinOp::RELU6);
  rules["Sigmoid"] = unary_rule(BuiltinOp::LOGISTIC);
  rules["Tanh"] = unary_rule(BuiltinOp::TANH);
  rules["Exp"] = unary_rule(BuiltinOp::EXP);
  rules["Log"] = unary_rule(BuiltinOp::LOG);
  rules["Abs"] = unary_rule(BuiltinOp::ABS);
  rules["LeakyReLU"] = emit_leaky_relu;
  rules["PReLU"] = emit_prelu;
  rules["ELU"] = emit_elu;
  rules["Identity"] = emit_pass;
  rules["Dropout"] = emit_pass;
  rules["Add2"] = binary_rule(BuiltinOp::ADD);
  rules["Sub2"] = binary_rule(BuiltinOp::SUB);
  rules["Mul2"] = binary_rule(BuiltinOp::MUL);
  rules["Div2"] = binary_rule(BuiltinOp::DIV);
  rules["Maximum2"] = binary_rule(BuiltinOp::MAXIMUM);
  rules["Minimum2"] = binary_rule(BuiltinOp::MINIMUM);
  rules["AddScalar"] = scalar_rule(BuiltinOp::ADD);
  rules["MulScalar"] = scalar_rule(BuiltinOp::MUL);
  rules["RSubScalar"] = scalar_rule(BuiltinOp::SUB, true);
  rules["RDivScalar"] = scalar_rule(BuiltinOp::DIV, true);
  rules["MaximumScalar"] = scalar_rule(BuiltinOp::MAXIMUM);
  rules["MinimumScalar"] = scalar_rule(BuiltinOp::MINIMUM);
  rules["PowScalar"] = emit_pow_scalar;
}

}  // namespace nn::formats::tflite_export
