// ONNX export rules for functions whose output size follows the data: NonZero, BoolGather, Unique and
// ONNXNonMaxSuppression (ONNX NonZero, NonZero + GatherND, Unique, NonMaxSuppression; INT64 indices cast to
// nnabla's floats).
#include "formats/onnx/export/onnx_emitter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx_export {
namespace {

std::string to_float(Emitter& e, const std::string& int64_name, const std::string& output) {
  return e.cast(int64_name, onnx::TensorProto::FLOAT, output);
}

void emit_non_zero(Emitter& e, const ir::Function& f) {
  const std::string indices = e.fresh(f.outputs.at(0), "indices");
  e.node("NonZero", {f.inputs.at(0)}, {indices}, e.node_name("NonZero"));
  to_float(e, indices, f.outputs.at(0));
}

// BoolGather(gdata, mask): the rows where mask != 0, (nnz, D) with D the flattened rest of gdata's axes (or
// (nnz) when the mask covers them all): GatherND at NonZero(mask)'s transposed coordinates.
void emit_bool_gather(Emitter& e, const ir::Function& f) {
  const std::string &gdata = f.inputs.at(0), &mask = f.inputs.at(1);
  const Shape &gs = e.shape(gdata), &ms = e.shape(mask);
  NN_CHECK(ms.size() <= gs.size()) << "mask " << ms << " has more axes than gdata " << gs;
  const std::string coords = e.fresh(f.outputs.at(0), "coords"), rows = e.fresh(f.outputs.at(0), "coords_t");
  e.node("NonZero", {mask}, {coords}, e.node_name("NonZero"));
  set_attr(e.node("Transpose", {coords}, {rows}, e.node_name("Transpose")), "perm", std::vector<int64_t>{1, 0});
  if (gs.size() <= ms.size() + 1) {
    e.node("GatherND", {gdata, rows}, {f.outputs.at(0)}, e.node_name("GatherND"));
    return;
  }
  const std::string picked = e.fresh(f.outputs.at(0), "picked");
  e.node("GatherND", {gdata, rows}, {picked}, e.node_name("GatherND"));
  const int64_t row_size = shape_size(gs, ms.size(), gs.size());
  e.node("Reshape", {picked, e.int64_initializer("rows", {-1, row_size})}, {f.outputs.at(0)},
         e.node_name("Reshape"));
}

// Unique(flatten, axis, sorted, with_index, with_inverse, with_counts): ONNX Unique (no axis = flattened), the
// outputs nnabla asks for in its order.
void emit_unique(Emitter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  std::vector<std::string> outputs{f.outputs.at(0), "", "", ""};
  size_t next = 1;
  for (size_t i = 1; i < 4; ++i) {
    static const char* const kFlags[] = {"", "with_index", "with_inverse", "with_counts"};
    if (f.attrs.get_bool(kFlags[i], false)) {
      NN_CHECK(next < f.outputs.size()) << kFlags[i] << "=true needs output " << next;
      outputs[i] = e.fresh(f.outputs[next], "int64");
      ++next;
    }
  }
  onnx::NodeProto* n = e.node("Unique", {x}, outputs, e.node_name("Unique"));
  set_attr(n, "sorted", int64_t(f.attrs.get_bool("sorted", true) ? 1 : 0));
  if (!f.attrs.get_bool("flatten", true)) set_attr(n, "axis", f.attrs.get_int("axis", 0));
  next = 1;
  for (size_t i = 1; i < 4; ++i)
    if (!outputs[i].empty()) to_float(e, outputs[i], f.outputs[next++]);
}

void emit_non_max_suppression(Emitter& e, const ir::Function& f) {
  const std::string selected = e.fresh(f.outputs.at(0), "selected");
  const std::string max_boxes =
      e.int64_initializer("max_output_boxes_per_class", {f.attrs.get_int("max_output_boxes_per_class", 0)});
  const std::string iou =
      e.float_initializer("iou_threshold", {float(f.attrs.get_float("iou_threshold", 0.0))}, {1});
  const std::string score =
      e.float_initializer("score_threshold", {float(f.attrs.get_float("score_threshold", 0.0))}, {1});
  onnx::NodeProto* n = e.node("NonMaxSuppression", {f.inputs.at(0), f.inputs.at(1), max_boxes, iou, score},
                              {selected}, e.node_name("NonMaxSuppression"));
  set_attr(n, "center_point_box", f.attrs.get_int("center_point_box", 0));
  to_float(e, selected, f.outputs.at(0));
}

}  // namespace

void add_data_sized_rules(std::vector<Rule>& rules) {
  rules.push_back({"NonZero", 9, emit_non_zero});
  rules.push_back({"BoolGather", 11, emit_bool_gather});  // GatherND from opset 11
  rules.push_back({"Unique", 11, emit_unique});
  rules.push_back({"ONNXNonMaxSuppression", 10, emit_non_max_suppression});
}

}  // namespace nn::formats::onnx_export
