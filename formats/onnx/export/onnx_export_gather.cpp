// ONNX export rules for what ONNX import brings in: Gather, GatherNd, ScatterNd, Einsum, Trilu, EyeLike,
// ONNXResize, Constant.
#include "formats/onnx/export/onnx_emitter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx_export {
namespace {

std::string as_int64(Emitter& e, const std::string& x) {
  return e.elem_type(x) == onnx::TensorProto::INT64 ? x : e.cast(x, onnx::TensorProto::INT64);
}

void emit_gather(Emitter& e, const ir::Function& f) {
  NN_CHECK(f.attrs.get_int("batch_dims", 0) == 0) << "batch_dims other than 0 is not supported for ONNX export";
  const int64_t rank = int64_t(e.shape(f.inputs.at(0)).size());
  int64_t axis = f.attrs.get_int("axis", 0);
  if (axis < 0) axis += rank;
  onnx::NodeProto* n =
      e.node("Gather", {f.inputs.at(0), as_int64(e, f.inputs.at(1))}, {f.outputs.at(0)}, e.node_name("Gather"));
  set_attr(n, "axis", axis);
}

// nnabla's (M, ...) index tuples as ONNX's (..., M).
std::string nd_indices(Emitter& e, const std::string& indices) {
  const size_t rank = e.shape(indices).size();
  std::vector<int64_t> perm;
  for (size_t i = 1; i < rank; ++i) perm.push_back(int64_t(i));
  perm.push_back(0);
  const std::string idx = as_int64(e, indices);
  if (rank == 1) return idx;
  const std::string t = e.fresh(indices, "transpose");
  set_attr(e.node("Transpose", {idx}, {t}, e.node_name("Transpose")), "perm", perm);
  return t;
}

void emit_gather_nd(Emitter& e, const ir::Function& f) {
  e.node("GatherND", {f.inputs.at(0), nd_indices(e, f.inputs.at(1))}, {f.outputs.at(0)}, e.node_name("GatherND"));
}

// ScatterNd(data, indices, out): ScatterND(out, indices, data); without `out` into zeros of `shape`.
void emit_scatter_nd(Emitter& e, const ir::Function& f) {
  std::string base;
  if (f.inputs.size() > 2) {
    base = f.inputs[2];
  } else {
    const Shape& ys = e.shape(f.outputs.at(0));
    base = e.float_initializer("scatter_zeros", std::vector<float>(size_t(shape_size(ys)), 0.0f), ys);
  }
  onnx::NodeProto* n = e.node("ScatterND", {base, nd_indices(e, f.inputs.at(1)), f.inputs.at(0)},
                              {f.outputs.at(0)}, e.node_name("ScatterND"));
  if (f.attrs.get_bool("add", false)) {
    NN_CHECK(e.table() >= 17) << "ScatterNd with add=true needs opset 16 or newer (reduction) for ONNX export";
    set_attr(n, "reduction", std::string("add"));
  }
}

void emit_einsum(Emitter& e, const ir::Function& f) {
  set_attr(e.node("Einsum", f.inputs, {f.outputs.at(0)}, e.node_name("Einsum")), "equation",
           f.attrs.get_string("equation", ""));
}

void emit_trilu(Emitter& e, const ir::Function& f) {
  const std::string k = e.int64_initializer("trilu_k", {f.attrs.get_int("k", 0)}, {});
  set_attr(e.node("Trilu", {f.inputs.at(0), k}, {f.outputs.at(0)}, e.node_name("Trilu")), "upper",
           int64_t(f.attrs.get_bool("upper", true) ? 1 : 0));
}

void emit_eye_like(Emitter& e, const ir::Function& f) {
  onnx::NodeProto* n = e.node("EyeLike", {f.inputs.at(0)}, {f.outputs.at(0)}, e.node_name("EyeLike"));
  set_attr(n, "k", f.attrs.get_int("k", 0));
  set_attr(n, "dtype", int64_t(onnx::TensorProto::FLOAT));
}

// ONNXResize carries Resize's own attributes; scales or sizes become initializers.
void emit_onnx_resize(Emitter& e, const ir::Function& f) {
  std::vector<float> roi, scales;
  for (double v : f.attrs.get_floats("roi", {})) roi.push_back(float(v));
  for (double v : f.attrs.get_floats("scales", {})) scales.push_back(float(v));
  const std::vector<int64_t> sizes = f.attrs.get_ints("sizes", {});
  std::vector<std::string> inputs{f.inputs.at(0), e.float_initializer("resize_roi", roi, {int64_t(roi.size())})};
  if (sizes.empty()) {
    inputs.push_back(e.float_initializer("resize_scales", scales, {int64_t(scales.size())}));
  } else {
    inputs.push_back(e.float_initializer("resize_scales", {}, {0}));  // Resize-11 needs it, empty
    inputs.push_back(e.int64_initializer("resize_sizes", sizes));
  }
  onnx::NodeProto* n = e.node("Resize", inputs, {f.outputs.at(0)}, e.node_name("Resize"));
  set_attr(n, "mode", f.attrs.get_string("mode", "nearest"));
  set_attr(n, "coordinate_transformation_mode",
           f.attrs.get_string("coordinate_transformation_mode", "half_pixel"));
  set_attr(n, "cubic_coeff_a", float(f.attrs.get_float("cubic_coeff_a", -0.75)));
  set_attr(n, "exclude_outside", f.attrs.get_int("exclude_outside", 0));
  set_attr(n, "extrapolation_value", float(f.attrs.get_float("extrapolation_value", 0.0)));
  set_attr(n, "nearest_mode", f.attrs.get_string("nearest_mode", "round_prefer_floor"));
}

// Constant(val, shape): ConstantOfShape of the (batch-substituted) shape.
void emit_constant(Emitter& e, const ir::Function& f) {
  const Shape& ys = e.shape(f.outputs.at(0));
  onnx::NodeProto* n = e.node("ConstantOfShape", {e.int64_initializer("constant_shape", std::vector<int64_t>(ys))},
                              {f.outputs.at(0)}, e.node_name("ConstantOfShape"));
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  onnx::TensorProto* t = a->mutable_t();
  t->set_data_type(onnx::TensorProto::FLOAT);
  t->add_dims(1);
  t->add_float_data(float(f.attrs.get_float("val", 0.0)));
}

}  // namespace

void add_gather_rules(std::vector<Rule>& rules) {
  rules.push_back({"Gather", 6, emit_gather});
  rules.push_back({"GatherNd", 11, emit_gather_nd});
  rules.push_back({"ScatterNd", 11, emit_scatter_nd});
  rules.push_back({"Einsum", 13, emit_einsum});  // opset 12
  rules.push_back({"Trilu", 14, emit_trilu});
  rules.push_back({"EyeLike", 9, emit_eye_like});
  rules.push_back({"ONNXResize", 11, emit_onnx_resize});
  rules.push_back({"Constant", 9, emit_constant});
}

}  // namespace nn::formats::onnx_export
