// ONNX export rules for index-driven functions: Flip (Slice with step -1), CumSum, Embed (Gather), Unpooling
// (Resize).
#include <limits>

#include "formats/onnx/export/onnx_emitter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx_export {
namespace {

int64_t axis_in(int64_t axis, size_t rank, const char* what) {
  int64_t r = int64_t(rank);
  NN_CHECK(axis >= -r && axis < r) << what << " " << axis << " is out of range for rank " << rank;
  return axis < 0 ? axis + r : axis;
}

// Flip(axes): Slice from the last element to before the first with step -1 on each axis.
void emit_flip(Emitter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  const size_t rank = e.shape(x).size();
  std::vector<int64_t> axes = f.attrs.get_ints("axes", {int64_t(rank) - 1});
  for (int64_t& a : axes) a = axis_in(a, rank, "axes");
  const size_t n = axes.size();
  std::string starts = e.int64_initializer("flip_starts", std::vector<int64_t>(n, -1));
  std::string ends =
      e.int64_initializer("flip_ends", std::vector<int64_t>(n, std::numeric_limits<int64_t>::min()));
  std::string axes_name = e.int64_initializer("flip_axes", axes);
  std::string steps = e.int64_initializer("flip_steps", std::vector<int64_t>(n, -1));
  e.node("Slice", {x, starts, ends, axes_name, steps}, {f.outputs.at(0)}, e.node_name("Slice"));
}

void emit_cumsum(Emitter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  int64_t axis = axis_in(f.attrs.get_int("axis", 0), e.shape(x).size(), "axis");
  std::string axis_name = e.int64_initializer("cumsum_axis", {axis}, {});
  onnx::NodeProto* n = e.node("CumSum", {x, axis_name}, {f.outputs.at(0)}, e.node_name("CumSum"));
  set_attr(n, "exclusive", int64_t(f.attrs.get_bool("exclusive", false) ? 1 : 0));
  set_attr(n, "reverse", int64_t(f.attrs.get_bool("reverse", false) ? 1 : 0));
}

// Embed(x, W): rows of W picked by the integer values of x.
void emit_embed(Emitter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  std::string indices = x;
  if (e.elem_type(x) != onnx::TensorProto::INT64) {
    indices = e.fresh(x, "cast");
    set_attr(e.node("Cast", {x}, {indices}, e.node_name("Cast")), "to", int64_t(onnx::TensorProto::INT64));
  }
  set_attr(e.node("Gather", {f.inputs.at(1), indices}, {f.outputs.at(0)}, e.node_name("Gather")), "axis",
           int64_t(0));
}

// Unpooling(kernel): every element repeated kernel times per spatial axis = nearest-neighbour upsampling.
void emit_unpooling(Emitter& e, const ir::Function& f) {
  NN_CHECK(!f.attrs.get_bool("channel_last", false)) << "channel_last=true is not supported for ONNX export";
  const std::string& x = f.inputs.at(0);
  const Shape& xs = e.shape(x);
  std::vector<int64_t> kernel = f.attrs.get_ints("kernel", {});
  NN_CHECK(!kernel.empty() && kernel.size() <= xs.size()) << "kernel " << kernel << " does not fit input " << xs;
  std::vector<float> scales(xs.size(), 1.0f);
  for (size_t i = 0; i < kernel.size(); ++i) scales[xs.size() - kernel.size() + i] = float(kernel[i]);
  std::string scales_name = e.float_initializer("unpooling_scales", scales, {int64_t(scales.size())});
  std::string roi = e.float_initializer("unpooling_roi", {}, {0});
  onnx::NodeProto* n = e.node("Resize", {x, roi, scales_name}, {f.outputs.at(0)}, e.node_name("Resize"));
  set_attr(n, "mode", std::string("nearest"));
  set_attr(n, "coordinate_transformation_mode", std::string("asymmetric"));
  set_attr(n, "nearest_mode", std::string("floor"));
}

}  // namespace

void add_indexing_rules(std::vector<Rule>& rules) {
  rules.push_back({"Flip", 10, emit_flip});  // Slice with steps from opset 10
  rules.push_back({"CumSum", 11, emit_cumsum});
  rules.push_back({"Embed", 6, emit_embed});
  rules.push_back({"Unpooling", 11, emit_unpooling});
}

}  // namespace nn::formats::onnx_export
