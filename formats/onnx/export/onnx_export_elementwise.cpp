// ONNX export rules for element-wise functions: unary math, activations, binary, scalar and logic ops.
#include <cmath>

#include "formats/onnx/export/onnx_emitter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx_export {
namespace {

const std::string& in(const ir::Function& f, size_t i) {
  NN_CHECK(i < f.inputs.size()) << "input " << i << " is missing";
  return f.inputs[i];
}
const std::string& out(const ir::Function& f) {
  NN_CHECK(!f.outputs.empty()) << "output is missing";
  return f.outputs[0];
}

// nnabla type -> ONNX op with the same single input/output.
const char* same_op(const std::string& type) {
  static const std::pair<const char*, const char*> table[] = {{"Abs", "Abs"},
                                                              {"Exp", "Exp"},
                                                              {"Log", "Log"},
                                                              {"Identity", "Identity"},
                                                              {"Ceil", "Ceil"},
                                                              {"Floor", "Floor"},
                                                              {"Sigmoid", "Sigmoid"},
                                                              {"Tanh", "Tanh"},
                                                              {"ReLU", "Relu"},
                                                              {"SoftSign", "Softsign"},
                                                              {"HardSigmoid", "HardSigmoid"},
                                                              {"Sin", "Sin"},
                                                              {"Cos", "Cos"},
                                                              {"Tan", "Tan"},
                                                              {"ACos", "Acos"},
                                                              {"ASin", "Asin"},
                                                              {"ATan", "Atan"},
                                                              {"Sinh", "Sinh"},
                                                              {"Cosh", "Cosh"},
                                                              {"ASinh", "Asinh"},
                                                              {"ACosh", "Acosh"},
                                                              {"ATanh", "Atanh"},
                                                              {"Sign", "Sign"},
                                                              {"Round", "Round"},
                                                              {"Erf", "Erf"},
                                                              {"IsNaN", "IsNaN"},
                                                              {"IsInf", "IsInf"}};
  for (const auto& [n, op] : table)
    if (type == n) return op;
  return nullptr;
}

void emit_same(Emitter& e, const ir::Function& f) {
  std::string op = same_op(f.type);
  // Upstream's SNPE Tanh carries alpha/beta attributes, which onnx's checker rejects: left out here.
  e.node(op, {in(f, 0)}, {out(f)}, e.node_name(op));
  if (f.type == "IsNaN" || f.type == "IsInf") e.set_elem_type(out(f), onnx::TensorProto::BOOL);
}

// ONNX And/Or/Xor/Not take and give BOOL; nnabla's take numbers (non-zero is true) and give 0/1 floats:
// inputs not already BOOL are cast to it, the result is cast back to FLOAT (ONNX Runtime refuses FLOAT).
std::string as_bool(Emitter& e, const std::string& x) {
  return e.elem_type(x) == onnx::TensorProto::BOOL ? x : e.cast(x, onnx::TensorProto::BOOL);
}

void emit_logical(Emitter& e, const ir::Function& f, const char* op, std::vector<std::string> operands) {
  std::string result = e.fresh(out(f), "bool");
  onnx::NodeProto* n = e.node(op, operands, {result}, e.node_name(op));
  if (e.table() < 7 && operands.size() == 2) set_attr(n, "broadcast", int64_t(1));
  e.cast(result, onnx::TensorProto::FLOAT, out(f));
}

void emit_logical_not(Emitter& e, const ir::Function& f) { emit_logical(e, f, "Not", {as_bool(e, in(f, 0))}); }

// SoftPlus(x, beta) = Softplus(beta * x) / beta; ONNX Softplus has no beta (upstream drops it).
void emit_softplus(Emitter& e, const ir::Function& f) {
  const float beta = float(f.attrs.get_float("beta", 1.0));
  if (beta == 1.0f) {
    e.node("Softplus", {in(f, 0)}, {out(f)}, e.node_name("Softplus"));
    return;
  }
  NN_CHECK(beta > 0.0f) << "beta " << beta << " must be positive";
  const Shape& full = e.shape(in(f, 0));
  const bool broadcast = e.table() >= 7;  // opset 6 would need broadcast=1: full-shape constants instead
  const Shape dims = broadcast ? Shape{1} : full;
  std::string scaled = e.fresh(in(f, 0), "scaled"), soft = e.fresh(in(f, 0), "softplus");
  std::string b = e.float_constant(in(f, 0), std::vector<float>(shape_size(dims), beta), dims);
  e.node("Mul", {in(f, 0), b}, {scaled}, e.node_name("Mul"));
  e.node("Softplus", {scaled}, {soft}, e.node_name("Softplus"));
  e.node("Div", {soft, b}, {out(f)}, e.node_name("Div"));
}

void emit_with_alpha(Emitter& e, const ir::Function& f) {
  if (f.type == "LeakyReLU") {
    set_attr(e.node("LeakyRelu", {in(f, 0)}, {out(f)}, e.node_name("LeakyRelu")), "alpha",
             float(f.attrs.get_float("alpha", 0.1)));
  } else if (f.type == "ELU") {
    set_attr(e.node("Elu", {in(f, 0)}, {out(f)}, e.node_name("Elu")), "alpha",
             float(f.attrs.get_float("alpha", 1.0)));
  } else {  // SELU
    onnx::NodeProto* n = e.node("Selu", {in(f, 0)}, {out(f)}, e.node_name("Selu"));
    set_attr(n, "alpha", float(f.attrs.get_float("alpha", 1.6732632423543772)));
    set_attr(n, "gamma", float(f.attrs.get_float("scale", 1.05070098735548)));
  }
}

// Binary ops with numpy broadcasting from opset 7; opset 6 needs broadcast=1 when the shapes differ.
void emit_binary(Emitter& e, const ir::Function& f) {
  static const std::pair<const char*, const char*> table[] = {
      {"Add2", "Add"},       {"Sub2", "Sub"},     {"Mul2", "Mul"},        {"Div2", "Div"},
      {"Pow2", "Pow"},       {"Less", "Less"},    {"Greater", "Greater"}, {"Equal", "Equal"},
      {"LogicalAnd", "And"}, {"LogicalOr", "Or"}, {"LogicalXor", "Xor"},  {"Maximum2", "Max"},
      {"Minimum2", "Min"}};
  std::string op;
  for (const auto& [n, o] : table)
    if (f.type == n) op = o;
  if (op == "And" || op == "Or" || op == "Xor") {
    emit_logical(e, f, op.c_str(), {as_bool(e, in(f, 0)), as_bool(e, in(f, 1))});
    return;
  }
  onnx::NodeProto* n = e.node(op, {in(f, 0), in(f, 1)}, {out(f)}, e.node_name(op));
  if (e.table() < 7 && op != "Max" && op != "Min") set_attr(n, "broadcast", int64_t(1));
  if (op == "Less" || op == "Greater" || op == "Equal") e.set_elem_type(out(f), onnx::TensorProto::BOOL);
}

// NotEqual / GreaterEqual / LessEqual: the complementary comparison then Not.
void emit_negated_compare(Emitter& e, const ir::Function& f) {
  const char* op = f.type == "NotEqual" ? "Equal" : f.type == "GreaterEqual" ? "Less" : "Greater";
  std::string mid = e.fresh(out(f), "cmp");
  e.node(op, {in(f, 0), in(f, 1)}, {mid}, e.node_name(op));
  e.node("Not", {mid}, {out(f)}, e.node_name("Not"));
  e.set_elem_type(out(f), onnx::TensorProto::BOOL);
}

// AddScalar, MulScalar, PowScalar, Maximum/MinimumScalar and the comparison scalars: Constant + op.
void emit_scalar(Emitter& e, const ir::Function& f) {
  float val = float(f.attrs.get_float("val", f.type == "MulScalar" || f.type == "PowScalar" ? 1.0 : 0.0));
  if (f.type == "MulScalar" && val == -1.0f) {
    e.node("Neg", {in(f, 0)}, {out(f)}, e.node_name("Neg"));
    return;
  }
  Shape dims = {1};
  if (e.dialect() == Dialect::kSnpe) dims = e.shape(in(f, 0));
  std::string c = e.float_constant(in(f, 0), std::vector<float>(shape_size(dims), val), dims);
  static const std::pair<const char*, const char*> table[] = {
      {"AddScalar", "Add"},           {"MulScalar", "Mul"},          {"PowScalar", "Pow"},
      {"MaximumScalar", "Max"},       {"MinimumScalar", "Min"},      {"EqualScalar", "Equal"},
      {"GreaterScalar", "Greater"},   {"LessScalar", "Less"},        {"NotEqualScalar", "Equal"},
      {"GreaterEqualScalar", "Less"}, {"LessEqualScalar", "Greater"}};
  std::string op;
  for (const auto& [n, o] : table)
    if (f.type == n) op = o;
  bool negate = f.type == "NotEqualScalar" || f.type == "GreaterEqualScalar" || f.type == "LessEqualScalar";
  std::string result = negate ? e.fresh(out(f), "cmp") : out(f);
  if ((op == "Max" || op == "Min") && e.table() < 8) {
    // Max/Min broadcast only from opset 8: give the constant the full input shape.
    Shape full = e.shape(in(f, 0));
    c = e.float_constant(in(f, 0), std::vector<float>(shape_size(full), val), full);
  }
  onnx::NodeProto* n = e.node(op, {in(f, 0), c}, {result}, e.node_name(op));
  if (e.table() < 7 && op != "Max" && op != "Min") set_attr(n, "broadcast", int64_t(1));
  if (negate) e.node("Not", {result}, {out(f)}, e.node_name("Not"));
  if (f.type.find("Equal") != std::string::npos || f.type.find("Greater") != std::string::npos ||
      f.type.find("Less") != std::string::npos)
    e.set_elem_type(out(f), onnx::TensorProto::BOOL);
}

// RSubScalar / RDivScalar / RPowScalar: a full-shape constant first.
void emit_rscalar(Emitter& e, const ir::Function& f) {
  float val = float(f.attrs.get_float("val", 1.0));
  Shape full = e.shape(in(f, 0));
  std::string c = e.float_constant(in(f, 0), std::vector<float>(shape_size(full), val), full);
  const char* op = f.type == "RSubScalar" ? "Sub" : f.type == "RDivScalar" ? "Div" : "Pow";
  e.node(op, {c, in(f, 0)}, {out(f)}, e.node_name(op));
}

void emit_logical_scalar(Emitter& e, const ir::Function& f) {
  std::string x = as_bool(e, in(f, 0));
  std::string c = e.bool_constant(in(f, 0), f.attrs.get_bool("val", false), {1});
  const char* op = f.type == "LogicalAndScalar" ? "And" : f.type == "LogicalOrScalar" ? "Or" : "Xor";
  emit_logical(e, f, op, {x, c});
}

void emit_composite_activation(Emitter& e, const ir::Function& f) {
  const std::string& x = in(f, 0);
  const std::string& y = out(f);
  if (f.type == "Swish") {
    std::string s = e.fresh(x, "sigmoid");
    e.node("Sigmoid", {x}, {s}, e.node_name("Sigmoid"));
    e.node("Mul", {x, s}, {y}, e.node_name("Mul"));
  } else if (f.type == "LogSigmoid") {
    std::string s = e.fresh(x, "sigmoid");
    e.node("Sigmoid", {x}, {s}, e.node_name("Sigmoid"));
    e.node("Log", {s}, {y}, e.node_name("Log"));
  } else if (f.type == "TanhShrink") {
    std::string t = e.fresh(x, "tanh");
    e.node("Tanh", {x}, {t}, e.node_name("Tanh"));
    e.node("Sub", {x, t}, {y}, e.node_name("Sub"));
  } else if (f.type == "ReLU6") {
    if (e.dialect() == Dialect::kSnpe) {
      onnx::NodeProto* n = e.node("Clip", {x}, {y}, e.node_name("Clip"));
      set_attr(n, "min", 0.0f);
      set_attr(n, "max", 6.0f);
      return;
    }
    std::string r = e.fresh(x, "relu");
    e.node("Relu", {x}, {r}, e.node_name("Relu"));
    Shape full = e.shape(x);
    std::string six = e.float_constant(x, std::vector<float>(shape_size(full), 6.0f), full);
    e.node("Min", {r, six}, {y}, e.node_name("Min"));
  } else if (f.type == "HardTanh") {
    Shape full = e.shape(x);
    std::string one = e.float_constant(x, std::vector<float>(shape_size(full), 1.0f), full);
    std::string minus_one = e.fresh(x, "neg");
    e.node("Neg", {one}, {minus_one}, e.node_name("Neg"));
    std::string lo = e.fresh(x, "min");
    e.node("Min", {x, one}, {lo}, e.node_name("Min"));
    e.node("Max", {lo, minus_one}, {y}, e.node_name("Max"));
  } else if (f.type == "CReLU" || f.type == "CELU") {
    const char* act = f.type == "CReLU" ? "Relu" : "Elu";
    std::string neg = e.fresh(x, "neg"), a = e.fresh(x, "pos"), b = e.fresh(x, "negact");
    e.node(act, {x}, {a}, e.node_name(act));
    e.node("Neg", {x}, {neg}, e.node_name("Neg"));
    e.node(act, {neg}, {b}, e.node_name(act));
    set_attr(e.node("Concat", {a, b}, {y}, e.node_name("Concat")), "axis", f.attrs.get_int("axis", 1));
  } else if (f.type == "ATan2") {
    std::string d = e.fresh(x, "div");
    e.node("Div", {x, in(f, 1)}, {d}, e.node_name("Div"));
    e.node("Atan", {d}, {y}, e.node_name("Atan"));
  }
}

// Inference Dropout (y = x). A mask output (2018 files name one) is BOOL from opset 10: cast back to FLOAT.
void emit_dropout(Emitter& e, const ir::Function& f) {
  std::vector<std::string> outputs = {out(f)};
  const bool bool_mask = f.outputs.size() > 1 && e.table() >= 10;
  if (f.outputs.size() > 1) outputs.push_back(bool_mask ? e.fresh(f.outputs[1], "bool") : f.outputs[1]);
  onnx::NodeProto* n = e.node("Dropout", {in(f, 0)}, outputs, e.node_name("Dropout"));
  if (e.table() < 7) set_attr(n, "is_test", int64_t(1));
  if (e.table() < 12) set_attr(n, "ratio", float(f.attrs.get_float("p", 0.5)));
  if (bool_mask) e.cast(outputs[1], onnx::TensorProto::FLOAT, f.outputs[1]);
}

}  // namespace

void add_elementwise_rules(std::vector<Rule>& rules) {
  for (const char* t :
       {"Abs", "Exp", "Log", "Identity", "Ceil", "Floor", "Sigmoid", "Tanh", "ReLU", "SoftSign", "HardSigmoid"})
    rules.push_back({t, 6, emit_same});
  rules.push_back({"SoftPlus", 6, emit_softplus});
  rules.push_back({"LogicalNot", 6, emit_logical_not});
  for (const char* t : {"Sin", "Cos", "Tan", "ACos", "ASin", "ATan"}) rules.push_back({t, 7, emit_same});
  for (const char* t : {"Sinh", "Cosh", "ASinh", "ACosh", "ATanh", "Sign", "IsNaN", "Erf"})
    rules.push_back({t, 9, emit_same});
  rules.push_back({"IsInf", 10, emit_same});
  rules.push_back({"Round", 11, emit_same});
  for (const char* t : {"LeakyReLU", "ELU", "SELU"}) rules.push_back({t, 6, emit_with_alpha});
  for (const char* t : {"Add2", "Sub2", "Mul2", "Div2", "Pow2", "Less", "Greater", "Equal", "LogicalAnd",
                        "LogicalOr", "LogicalXor", "Maximum2", "Minimum2"})
    rules.push_back({t, 6, emit_binary});
  for (const char* t : {"NotEqual", "GreaterEqual", "LessEqual"}) rules.push_back({t, 6, emit_negated_compare});
  for (const char* t : {"AddScalar", "MulScalar", "PowScalar", "MaximumScalar", "MinimumScalar", "EqualScalar",
                        "GreaterScalar", "LessScalar", "NotEqualScalar", "GreaterEqualScalar", "LessEqualScalar"})
    rules.push_back({t, 6, emit_scalar});
  for (const char* t : {"RSubScalar", "RDivScalar", "RPowScalar"}) rules.push_back({t, 6, emit_rscalar});
  for (const char* t : {"LogicalAndScalar", "LogicalOrScalar", "LogicalXorScalar"})
    rules.push_back({t, 6, emit_logical_scalar});
  for (const char* t : {"Swish", "LogSigmoid", "TanhShrink", "ReLU6", "HardTanh", "CReLU", "CELU"})
    rules.push_back({t, 6, emit_composite_activation});
  rules.push_back({"ATan2", 7, emit_composite_activation});
  rules.push_back({"Dropout", 6, emit_dropout});
}

}  // namespace nn::formats::onnx_export
