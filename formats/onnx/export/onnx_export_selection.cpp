// ONNX export rules for selection functions: OneHot (Gather from an identity table), Sort and TopKData (TopK).
#include "formats/onnx/export/onnx_emitter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx_export {
namespace {

std::string as_int64(Emitter& e, const std::string& x) {
  return e.elem_type(x) == onnx::TensorProto::INT64 ? x : e.cast(x, onnx::TensorProto::INT64);
}

// OneHot(x (..., D), shape [s0..sD-1]): the flat index sum(x_k * stride_k) picks a row of the identity of size
// prod(shape); the (..., 1, prod) rows are reshaped to (..., s0, ..., sD-1).
void emit_one_hot(Emitter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  const Shape& xs = e.shape(x);
  const std::vector<int64_t> shape = f.attrs.get_ints("shape", {});
  NN_CHECK(!xs.empty() && int64_t(shape.size()) == xs.back())
      << "the last dim of input " << xs << " must equal the length of shape " << shape;
  const int64_t classes = shape_size(Shape(shape.begin(), shape.end()));
  NN_CHECK(classes <= 4096) << "shape " << shape << " has " << classes
                            << " classes; the identity table of ONNX export is limited to 4096";
  std::string flat = x;
  if (shape.size() > 1) {  // (..., D) x (D, 1) strides -> (..., 1)
    std::vector<float> strides(shape.size(), 1.0f);
    for (size_t k = shape.size() - 1; k > 0; --k) strides[k - 1] = strides[k] * float(shape[k]);
    std::string s = e.float_initializer("one_hot_strides", strides, {int64_t(shape.size()), 1});
    flat = e.fresh(x, "flat_index");
    e.node("MatMul", {x, s}, {flat}, e.node_name("MatMul"));
  }
  std::vector<float> identity(size_t(classes * classes), 0.0f);
  for (int64_t i = 0; i < classes; ++i) identity[size_t(i * classes + i)] = 1.0f;
  std::string table = e.float_initializer("one_hot_table", identity, {classes, classes});
  std::string rows = e.fresh(f.outputs.at(0), "rows");
  set_attr(e.node("Gather", {table, as_int64(e, flat)}, {rows}, e.node_name("Gather")), "axis", int64_t(0));
  e.reshape(rows, e.shape(f.outputs.at(0)), f.outputs.at(0));
}

int64_t axis_in(int64_t axis, size_t rank) {
  const int64_t r = int64_t(rank);
  NN_CHECK(axis >= -r && axis < r) << "axis " << axis << " is out of range for rank " << rank;
  return axis < 0 ? axis + r : axis;
}

// TopK node (sorted; ties keep the lower index first, as nnabla's stable sort does) writing `values`; returns
// the INT64 indices.
std::string top_k(Emitter& e, const std::string& x, int64_t k, int64_t axis, bool largest,
                  const std::string& values) {
  std::string indices = e.fresh(values, "indices");
  std::string k_name = e.int64_initializer("top_k", {k});
  onnx::NodeProto* n = e.node("TopK", {x, k_name}, {values, indices}, e.node_name("TopK"));
  set_attr(n, "axis", axis);
  set_attr(n, "largest", int64_t(largest ? 1 : 0));
  set_attr(n, "sorted", int64_t(1));
  return indices;
}

// Sort(axis, reverse, with_index, only_index): TopK of the whole axis; indices cast to nnabla's floats.
void emit_sort(Emitter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  const Shape& xs = e.shape(x);
  const int64_t axis = axis_in(f.attrs.get_int("axis", -1), xs.size());
  const bool with_index = f.attrs.get_bool("with_index", false),
             only_index = f.attrs.get_bool("only_index", false);
  const std::string values = only_index ? e.fresh(x, "sorted") : f.outputs.at(0);
  std::string indices = top_k(e, x, xs[size_t(axis)], axis, f.attrs.get_bool("reverse", false), values);
  if (only_index) {
    e.cast(indices, onnx::TensorProto::FLOAT, f.outputs.at(0));
  } else if (with_index) {
    NN_CHECK(f.outputs.size() > 1) << "with_index=true needs a second output";
    e.cast(indices, onnx::TensorProto::FLOAT, f.outputs[1]);
  }
}

// ReduceSum over one axis, dropping it (axes an attribute before opset 13, an input from 13).
std::string reduce_sum(Emitter& e, const std::string& x, int64_t axis, const std::string& base) {
  std::string y = e.fresh(base, "sum");
  onnx::NodeProto* n = e.table() >= 13 ? e.node("ReduceSum", {x, e.int64_initializer("axes", {axis})}, {y})
                                       : e.node("ReduceSum", {x}, {y});
  if (e.table() < 13) set_attr(n, "axes", std::vector<int64_t>{axis});
  set_attr(n, "keepdims", int64_t(0));
  return y;
}

// FLOAT (outer, k, inner): 1 where inner position j is the i-th pick of a row (Equal against 0..inner-1).
std::string one_hot_positions(Emitter& e, const std::string& indices, int64_t outer, int64_t k, int64_t inner,
                              const std::string& base) {
  std::vector<int64_t> positions(static_cast<size_t>(inner));
  for (int64_t j = 0; j < inner; ++j) positions[size_t(j)] = j;
  std::string column = e.reshape(indices, {outer, k, 1});
  std::string equal = e.fresh(base, "picked");
  e.node("Equal", {column, e.int64_initializer("positions", positions)}, {equal}, e.node_name("Equal"));
  return e.cast(equal, onnx::TensorProto::FLOAT);
}

// TopKData(k, abs, reduce, base_axis, largest, with_index) over the flattened sample dims.
void emit_top_k_data(Emitter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  const Shape& xs = e.shape(x);
  const int64_t base_axis = f.attrs.get_int("base_axis", 1);
  NN_CHECK(base_axis >= 0 && base_axis < int64_t(xs.size())) << "base_axis " << base_axis << " is out of range";
  const int64_t outer = shape_size(xs, 0, size_t(base_axis)), inner = shape_size(xs, size_t(base_axis), xs.size());
  const int64_t k = f.attrs.get_int("k", 1);
  NN_CHECK(k >= 1 && k <= inner) << "k " << k << " must be in [1, " << inner << "]";
  const bool use_abs = f.attrs.get_bool("abs", false), reduce = f.attrs.get_bool("reduce", true);
  const std::string flat = xs == Shape{outer, inner} ? x : e.reshape(x, {outer, inner});
  std::string keys = flat;
  if (use_abs) {
    keys = e.fresh(x, "abs");
    e.node("Abs", {flat}, {keys}, e.node_name("Abs"));
  }
  std::string values = e.fresh(f.outputs.at(0), "values");
  std::string indices = top_k(e, keys, k, 1, f.attrs.get_bool("largest", true), values);
  // A one-hot of the picked positions, (outer, k, inner): picks signed values (abs) or masks x (not reduce).
  std::string picked;
  if (use_abs || !reduce) picked = one_hot_positions(e, indices, outer, k, inner, f.outputs.at(0));
  if (use_abs) {
    std::string spread = e.fresh(f.outputs.at(0), "spread"), rows = e.reshape(flat, {outer, 1, inner});
    e.node("Mul", {picked, rows}, {spread}, e.node_name("Mul"));
    values = reduce_sum(e, spread, 2, f.outputs.at(0));
  }
  Shape reduced(xs.begin(), xs.begin() + base_axis);
  reduced.push_back(k);
  if (reduce) {
    e.reshape(values, reduced, f.outputs.at(0));
  } else {  // x where picked, zeros elsewhere
    std::string mask = reduce_sum(e, picked, 1, f.outputs.at(0)), masked = e.fresh(f.outputs.at(0), "masked");
    e.node("Mul", {flat, mask}, {masked}, e.node_name("Mul"));
    e.reshape(masked, xs, f.outputs.at(0));
  }
  if (f.attrs.get_bool("with_index", false)) {
    NN_CHECK(f.outputs.size() > 1) << "with_index=true needs a second output";
    e.reshape(e.cast(indices, onnx::TensorProto::FLOAT), reduced, f.outputs[1]);
  }
}

}  // namespace

void add_selection_rules(std::vector<Rule>& rules) {
  rules.push_back({"OneHot", 6, emit_one_hot});
  rules.push_back({"Sort", 11, emit_sort});  // TopK with largest/sorted from opset 11
  rules.push_back({"TopKData", 11, emit_top_k_data});
}

}  // namespace nn::formats::onnx_export
