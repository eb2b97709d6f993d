// ONNX export rules for Layer/Instance/GroupNormalization as ReduceMean-based standardization (opset >= 7),
// LayerNormalization as the ONNX operator from opset 17.
#include <algorithm>

#include "formats/onnx/export/onnx_emitter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx_export {
namespace {

std::string reduce_mean(Emitter& e, const std::string& x, const std::vector<int64_t>& axes) {
  std::string y = e.fresh(x, "reducemean");
  onnx::NodeProto* n = e.node("ReduceMean", {x}, {y}, e.node_name("ReduceMean"));
  set_attr(n, "axes", axes);
  set_attr(n, "keepdims", int64_t(1));
  return y;
}

std::string binary(Emitter& e, const char* op, const std::string& a, const std::string& b,
                   const std::string& output = "") {
  std::string y = output.empty() ? e.fresh(a, op) : output;
  e.node(op, {a, b}, {y}, e.node_name(op));
  return y;
}

// (x - mean) / sqrt(var + eps) with the statistics over `axes` of x (already in the working shape).
std::string standardize(Emitter& e, const std::string& x, const Shape& work, const std::vector<int64_t>& axes,
                        float eps) {
  std::string centered = binary(e, "Sub", x, reduce_mean(e, x, axes));
  std::string variance = reduce_mean(e, binary(e, "Mul", centered, centered), axes);
  Shape stat = work;
  for (int64_t a : axes) stat[a] = 1;
  std::string eps_name = e.float_initializer("norm_eps", std::vector<float>(shape_size(stat), eps), stat);
  std::string stddev = e.fresh(x, "sqrt");
  e.node("Sqrt", {binary(e, "Add", variance, eps_name)}, {stddev}, e.node_name("Sqrt"));
  return binary(e, "Div", centered, stddev);
}

std::vector<int64_t> normalized_axes(const std::vector<int64_t>& given, size_t rank) {
  std::vector<int64_t> axes;
  for (int64_t a : given) {
    NN_CHECK(a >= -int64_t(rank) && a < int64_t(rank)) << "axis " << a << " is out of range for rank " << rank;
    axes.push_back(a < 0 ? a + int64_t(rank) : a);
  }
  return axes;
}

// Every axis of a rank-`rank` shape that is not in `kept`.
std::vector<int64_t> other_axes(const std::vector<int64_t>& kept, size_t rank) {
  std::vector<int64_t> axes;
  for (int64_t a = 0; a < int64_t(rank); ++a)
    if (std::find(kept.begin(), kept.end(), a) == kept.end()) axes.push_back(a);
  return axes;
}

void emit_normalization(Emitter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  const Shape& xs = e.shape(x);
  const bool no_bias = f.attrs.get_bool("no_bias", false), no_scale = f.attrs.get_bool("no_scale", false);
  NN_CHECK(f.outputs.size() == 1) << "batch statistics outputs (mean/variance) cannot be exported to ONNX";
  std::vector<int64_t> batch = f.attrs.get_ints("batch_axis", {0});
  Shape work = xs;
  std::vector<int64_t> kept;
  if (f.type == "LayerNormalization") {
    kept = normalized_axes(batch, xs.size());
  } else {
    const int64_t channel = normalized_axes({f.attrs.get_int("channel_axis", 1)}, xs.size())[0];
    if (f.type == "GroupNormalization") {
      const int64_t groups = f.attrs.get_int("num_groups", 1);
      NN_CHECK(groups > 0 && xs[channel] % groups == 0)
          << "channel dim " << xs[channel] << " is not a multiple of num_groups " << groups;
      work = Shape(xs.begin(), xs.begin() + channel);
      work.push_back(groups);
      work.push_back(xs[channel] / groups);
      work.insert(work.end(), xs.begin() + channel + 1, xs.end());
    }
    kept = normalized_axes(batch, work.size());
    kept.push_back(channel);
  }
  const std::string input = work == xs ? x : e.reshape(x, work);
  std::string y =
      standardize(e, input, work, other_axes(kept, work.size()), float(f.attrs.get_float("eps", 1e-5)));
  if (work != xs) y = e.reshape(y, xs);
  std::vector<std::string> affine;  // gamma then beta, as present
  if (!no_scale) affine.push_back(f.inputs.at(no_bias ? 1 : 2));
  if (!no_bias) affine.push_back(f.inputs.at(1));
  if (affine.empty()) {
    e.node("Identity", {y}, {f.outputs[0]}, e.node_name("Identity"));
    return;
  }
  if (!no_scale) y = binary(e, "Mul", y, affine[0], no_bias ? f.outputs[0] : "");
  if (!no_bias) binary(e, "Add", y, affine.back(), f.outputs[0]);
}

// Opset 17: ONNX LayerNormalization when the batch axes are the leading ones and scale/bias are present;
// otherwise the ReduceMean composition.
void emit_layer_norm17(Emitter& e, const ir::Function& f) {
  const Shape& xs = e.shape(f.inputs.at(0));
  const std::vector<int64_t> batch = normalized_axes(f.attrs.get_ints("batch_axis", {0}), xs.size());
  bool leading = !batch.empty() && f.outputs.size() == 1 && f.inputs.size() == 3 &&
                 !f.attrs.get_bool("no_bias", false) && !f.attrs.get_bool("no_scale", false);
  for (size_t i = 0; i < batch.size(); ++i) leading = leading && batch[i] == int64_t(i);
  if (!leading) return emit_normalization(e, f);
  const int64_t axis = int64_t(batch.size());
  const Shape tail(xs.begin() + axis, xs.end());
  const std::string scale = e.reshape(f.inputs[2], tail), bias = e.reshape(f.inputs[1], tail);
  onnx::NodeProto* n =
      e.node("LayerNormalization", {f.inputs[0], scale, bias}, {f.outputs[0]}, e.node_name("LayerNormalization"));
  set_attr(n, "axis", axis);
  set_attr(n, "epsilon", float(f.attrs.get_float("eps", 1e-5)));
}

}  // namespace

void add_normalization_rules(std::vector<Rule>& rules) {
  for (const char* t : {"LayerNormalization", "InstanceNormalization", "GroupNormalization"})
    rules.push_back({t, 7, emit_normalization});  // numpy broadcasting
  rules.push_back({"LayerNormalization", 17, emit_layer_norm17});
}

}  // namespace nn::formats::onnx_export
