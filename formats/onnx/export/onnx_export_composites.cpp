// ONNX export rules written as small subgraphs: GELU (tanh form), Mish, BinarySigmoid, BinaryTanh and Where.
#include "formats/onnx/export/onnx_emitter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx_export {
namespace {

// A binary node with a fresh output name (or `output` when given); returns the output.
std::string binary(Emitter& e, const char* op, const std::string& a, const std::string& b,
                   const std::string& output = "") {
  std::string y = output.empty() ? e.fresh(a, op) : output;
  e.node(op, {a, b}, {y}, e.node_name(op));
  return y;
}

std::string scalar(Emitter& e, const std::string& base, float value) {
  return e.float_constant(base, {value}, {});
}

// y = x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))): the form nnabla's GELU computes.
void emit_gelu(Emitter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  std::string cube = binary(e, "Mul", binary(e, "Mul", x, x), x);
  std::string inner = binary(e, "Add", x, binary(e, "Mul", cube, scalar(e, x, 0.044715f)));
  std::string tanh = e.fresh(x, "tanh");
  e.node("Tanh", {binary(e, "Mul", inner, scalar(e, x, 0.7978845608028654f))}, {tanh}, e.node_name("Tanh"));
  std::string half = binary(e, "Mul", x, scalar(e, x, 0.5f));
  binary(e, "Mul", half, binary(e, "Add", tanh, scalar(e, x, 1.0f)), f.outputs.at(0));
}

// y = x * tanh(softplus(x)).
void emit_mish(Emitter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  std::string softplus = e.fresh(x, "softplus"), tanh = e.fresh(x, "tanh");
  e.node("Softplus", {x}, {softplus}, e.node_name("Softplus"));
  e.node("Tanh", {softplus}, {tanh}, e.node_name("Tanh"));
  binary(e, "Mul", x, tanh, f.outputs.at(0));
}

// BinarySigmoid: x > 0 ? 1 : 0; BinaryTanh: x > 0 ? 1 : -1 (2 * step - 1).
void emit_binary_step(Emitter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  std::string positive = binary(e, "Greater", x, scalar(e, x, 0.0f));
  bool tanh = f.type == "BinaryTanh";
  std::string step = tanh ? e.fresh(x, "cast") : f.outputs.at(0);
  set_attr(e.node("Cast", {positive}, {step}, e.node_name("Cast")), "to", int64_t(onnx::TensorProto::FLOAT));
  if (tanh) binary(e, "Sub", binary(e, "Mul", step, scalar(e, x, 2.0f)), scalar(e, x, 1.0f), f.outputs.at(0));
}

// Where(condition, x_true, x_false): a non-zero condition selects x_true.
void emit_where(Emitter& e, const ir::Function& f) {
  std::string condition = f.inputs.at(0);
  if (e.elem_type(condition) != onnx::TensorProto::BOOL) {
    std::string as_bool = e.fresh(condition, "cast");
    set_attr(e.node("Cast", {condition}, {as_bool}, e.node_name("Cast")), "to", int64_t(onnx::TensorProto::BOOL));
    condition = as_bool;
  }
  e.node("Where", {condition, f.inputs.at(1), f.inputs.at(2)}, {f.outputs.at(0)}, e.node_name("Where"));
}

}  // namespace

void add_composite_rules(std::vector<Rule>& rules) {
  rules.push_back({"GELU", 7, emit_gelu});  // scalar constants broadcast from opset 7
  rules.push_back({"Mish", 6, emit_mish});
  for (const char* t : {"BinarySigmoid", "BinaryTanh"}) rules.push_back({t, 7, emit_binary_step});
  rules.push_back({"Where", 9, emit_where});
}

}  // namespace nn::formats::onnx_export
