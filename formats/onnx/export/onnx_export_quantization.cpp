// ONNX export rules for QuantizeLinear / DequantizeLinear: nnabla keeps the quantized values in FLOAT tensors,
// ONNX in INT8/UINT8 ones, so the quantized side is cast (Quantize -> Cast FLOAT, Cast INT8 -> Dequantize).
#include <cmath>

#include "formats/onnx/export/onnx_emitter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx_export {
namespace {

// nnabla's dtype number (1 int8, 2 uint8) as an ONNX element type.
int quantized_type(int64_t dtype) {
  NN_CHECK_CODE(dtype == 1 || dtype == 2, ErrorCode::kUnsupported)
      << "dtype " << dtype << " is not int8 (1) or uint8 (2)";
  return dtype == 1 ? onnx::TensorProto::INT8 : onnx::TensorProto::UINT8;
}

struct QuantParams {
  std::string scale, zero_point;
  int64_t axis = -1;  // per-axis quantization when >= 0
};

// scale/zero_point parameters of x's rank: all dims 1 (per tensor) or one dim equal to x's (per axis, opset 13).
QuantParams quant_params(Emitter& e, const ir::Function& f, int elem_type) {
  const Shape& xs = e.shape(f.inputs.at(0));
  QuantParams q;
  std::vector<float> scale, zero;
  for (size_t k = 1; k < 3; ++k) {
    const std::string& name = f.inputs.at(k);
    const ir::Parameter* p = e.is_parameter(name) ? e.parameter(name) : nullptr;
    NN_CHECK_CODE(p != nullptr, ErrorCode::kUnsupported)
        << (k == 1 ? "scale" : "zero_point") << " '" << name << "' must be a parameter for ONNX export";
    const Shape& ps = e.shape(name);
    NN_CHECK(ps.size() == xs.size()) << "'" << name << "' " << ps << " must have the rank of x " << xs;
    for (size_t d = 0; d < ps.size(); ++d) {
      if (ps[d] == 1) continue;
      NN_CHECK_CODE(ps[d] == xs[d] && (q.axis < 0 || q.axis == int64_t(d)), ErrorCode::kUnsupported)
          << "'" << name << "' " << ps << ": only per-tensor or single-axis quantization can be exported";
      q.axis = int64_t(d);
    }
    (k == 1 ? scale : zero) = p->data;
  }
  if (q.axis >= 0) {
    NN_CHECK_CODE(e.table() >= 13, ErrorCode::kUnsupported) << "per-axis quantization needs opset 13";
    const size_t n = size_t(xs[size_t(q.axis)]);
    if (scale.size() == 1) scale.assign(n, scale[0]);
    if (zero.size() == 1) zero.assign(n, zero[0]);
  }
  const Shape dims = q.axis >= 0 ? Shape{int64_t(scale.size())} : Shape{};
  const float lo = elem_type == onnx::TensorProto::INT8 ? -128.0f : 0.0f;
  const float hi = elem_type == onnx::TensorProto::INT8 ? 127.0f : 255.0f;
  std::vector<int64_t> zero_ints;
  for (float z : zero) {
    NN_CHECK_CODE(z == std::nearbyint(z) && z >= lo && z <= hi, ErrorCode::kUnsupported)
        << "zero_point " << z << " is not an integer in [" << lo << ", " << hi << "]";
    zero_ints.push_back(int64_t(z));
  }
  q.scale = e.float_initializer(f.inputs[1], scale, dims);
  q.zero_point = e.small_int_initializer(f.inputs[2], elem_type, zero_ints, dims);
  return q;
}

void emit_quantize(Emitter& e, const ir::Function& f) {
  const std::string round_mode = f.attrs.get_string("round_mode", "HALF_AWAY_FROM_ZERO");
  NN_CHECK_CODE(round_mode == "HALF_TO_EVEN", ErrorCode::kUnsupported)
      << "round_mode '" << round_mode << "': ONNX QuantizeLinear rounds HALF_TO_EVEN";
  NN_CHECK_CODE(!f.attrs.get_bool("narrow_range", false), ErrorCode::kUnsupported)
      << "narrow_range=true has no ONNX QuantizeLinear form";
  const int elem_type = quantized_type(f.attrs.get_int("dtype", 1));
  QuantParams q = quant_params(e, f, elem_type);
  std::string quantized = e.fresh(f.outputs.at(0), "quantized");
  onnx::NodeProto* n =
      e.node("QuantizeLinear", {f.inputs[0], q.scale, q.zero_point}, {quantized}, e.node_name("QuantizeLinear"));
  if (q.axis >= 0) set_attr(n, "axis", q.axis);
  e.cast(quantized, onnx::TensorProto::FLOAT, f.outputs[0]);
}

// The quantized type of a DequantizeLinear input: that of the QuantizeLinear producing it, else INT8.
int dequantize_type(const Emitter& e, const std::string& x) {
  for (const ir::Function& g : e.network().functions)
    if (g.type == "QuantizeLinear" && !g.outputs.empty() && g.outputs[0] == x)
      return quantized_type(g.attrs.get_int("dtype", 1));
  return onnx::TensorProto::INT8;
}

void emit_dequantize(Emitter& e, const ir::Function& f) {
  const int elem_type = dequantize_type(e, f.inputs.at(0));
  QuantParams q = quant_params(e, f, elem_type);
  std::string quantized = e.cast(f.inputs[0], elem_type);
  onnx::NodeProto* n = e.node("DequantizeLinear", {quantized, q.scale, q.zero_point}, {f.outputs.at(0)},
                              e.node_name("DequantizeLinear"));
  if (q.axis >= 0) set_attr(n, "axis", q.axis);
}

}  // namespace

void add_quantization_rules(std::vector<Rule>& rules) {
  rules.push_back({"QuantizeLinear", 10, emit_quantize});
  rules.push_back({"DequantizeLinear", 10, emit_dequantize});
}

}  // namespace nn::formats::onnx_export
