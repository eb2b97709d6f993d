// ONNX operators whose output size follows the data: NonZero, Compress, Unique, NonMaxSuppression, as nnabla's
// NonZero, BoolGather, Unique and ONNXNonMaxSuppression (their sizes are set at every run).
#include <numeric>

#include "formats/onnx/import/op_rules.hpp"

namespace nn::formats::onnx {
namespace {

void import_non_zero(ImportContext& ctx, const NodeView& node) {
  ctx.emit1("NonZero", {node.input(0)}, {}, node.output(0));
  ctx.set_data_type(node.output(0), ::onnx::TensorProto::INT64);
}

// Compress(input, condition[, axis]): the slices of `axis` (of the flattened input without it) where the 1-D
// condition is true; a condition shorter than the axis selects among its first entries. BoolGather selects rows
// of axis 0, so the axis is moved there and back.
void import_compress(ImportContext& ctx, const NodeView& node) {
  const Shape& xs = ctx.shape(node.input(0));
  const Shape& cs = ctx.shape(node.input(1));
  NN_CHECK(cs.size() == 1) << "condition must be 1-D, got " << to_string(cs);
  std::string x = node.input(0);
  int64_t axis = 0;
  Shape moved = xs;
  if (node.has("axis")) {
    axis = normalize_axis(node.get_int("axis", 0), int64_t(xs.size()));
  } else {
    moved = {shape_size(xs)};
    x = reshape_to(ctx, x, moved);
  }
  std::vector<int64_t> perm(moved.size());
  std::iota(perm.begin(), perm.end(), int64_t(0));
  std::swap(perm[0], perm[size_t(axis)]);
  if (axis != 0) {
    x = ctx.emit1("Transpose", {x}, {{"axes", perm}});
    std::swap(moved[0], moved[size_t(axis)]);
  }
  NN_CHECK(cs[0] <= moved[0]) << "condition of length " << cs[0] << " is longer than the axis (" << moved[0]
                              << ")";
  if (cs[0] < moved[0]) {
    std::vector<int64_t> start(moved.size(), 0), stop(moved.begin(), moved.end()), step(moved.size(), 1);
    stop[0] = cs[0];
    x = ctx.emit1("Slice", {x}, {{"start", start}, {"stop", stop}, {"step", step}});
  }
  if (axis == 0) {
    ctx.emit1("BoolGather", {x, node.input(1)}, {}, node.output(0));
  } else {  // the swap is its own inverse
    ctx.emit1("Transpose", {ctx.emit1("BoolGather", {x, node.input(1)})}, {{"axes", perm}}, node.output(0));
  }
  ctx.set_data_type(node.output(0), ctx.data_type(node.input(0)));
}

// Unique(X): Y and the optional indices, inverse_indices and counts, which nnabla's Unique gives in that order
// when asked for each.
void import_unique(ImportContext& ctx, const NodeView& node) {
  Attrs attrs{{"flatten", !node.has("axis")},
              {"sorted", node.get_int("sorted", 1) != 0},
              {"with_index", !node.output(1).empty()},
              {"with_inverse", !node.output(2).empty()},
              {"with_counts", !node.output(3).empty()}};
  if (node.has("axis")) attrs.set("axis", normalize_axis(node.get_int("axis", 0), ctx.rank(node.input(0))));
  std::vector<std::string> outputs{node.output(0)};
  for (size_t i = 1; i < 4; ++i)
    if (!node.output(i).empty()) outputs.push_back(node.output(i));
  ctx.emit("Unique", {node.input(0)}, attrs, outputs);
  ctx.set_data_type(node.output(0), ctx.data_type(node.input(0)));
  for (size_t i = 1; i < outputs.size(); ++i) ctx.set_data_type(outputs[i], ::onnx::TensorProto::INT64);
}

// An optional scalar input given as a constant (nnabla's function takes it as an argument).
double scalar_input(ImportContext& ctx, const NodeView& node, size_t i, double absent) {
  if (node.input(i).empty()) return absent;
  NN_CHECK_CODE(ctx.is_constant(node.input(i)), ErrorCode::kUnsupported)
      << "input " << i << " ('" << node.input(i) << "') must be a constant";
  const std::vector<float> v = ctx.const_values(node.input(i));
  NN_CHECK(v.size() == 1) << "input " << i << " must hold one value, got " << v.size();
  return v[0];
}

void import_non_max_suppression(ImportContext& ctx, const NodeView& node) {
  const int64_t max_boxes = node.input(2).empty() ? 0 : ctx.const_ints(node.input(2)).at(0);
  ctx.emit1("ONNXNonMaxSuppression", {node.input(0), node.input(1)},
            {{"center_point_box", node.get_int("center_point_box", 0)},
             {"max_output_boxes_per_class", max_boxes},
             {"iou_threshold", scalar_input(ctx, node, 3, 0.0)},
             {"score_threshold", scalar_input(ctx, node, 4, -std::numeric_limits<double>::infinity())}},
            node.output(0));
  ctx.set_data_type(node.output(0), ::onnx::TensorProto::INT64);
}

}  // namespace

void add_data_sized_rules(std::vector<OpRule>& rules) {
  rules.push_back({"NonZero", 9, 17, import_non_zero});
  rules.push_back({"Compress", 9, 17, import_compress});
  rules.push_back({"Unique", 11, 17, import_unique});
  rules.push_back({"NonMaxSuppression", 10, 17, import_non_max_suppression});
}

}  // namespace nn::formats::onnx
