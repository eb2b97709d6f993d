// ONNX export rules for array functions: reshape, transpose, concat/split/stack, slice, pad, tile, reductions.
#include <algorithm>
#include <numeric>

#include "formats/onnx/export/onnx_emitter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx_export {
namespace {

int64_t norm_axis(int64_t axis, size_t rank) { return axis < 0 ? axis + int64_t(rank) : axis; }

// Squeeze/Unsqueeze with `axes` as attribute (< 13) or INT64 initializer input (13).
void squeeze_like(Emitter& e, const char* op, const std::string& x, const std::string& y,
                  const std::vector<int64_t>& axes, const std::string& name = "") {
  if (e.table() >= 13) {
    e.node(op, {x, e.int64_initializer("axes", axes)}, {y}, name);
  } else {
    set_attr(e.node(op, {x}, {y}, name), "axes", axes);
  }
}

void emit_reshape(Emitter& e, const ir::Function& f) {
  const Shape& ys = e.shape(f.outputs.at(0));  // upstream: a Constant shape node, then Reshape
  std::string shape = e.int64_constant(f.outputs[0], e.shape_values(ys, e.has_batch_axis(f.outputs[0])));
  e.node("Reshape", {f.inputs.at(0), shape}, {f.outputs[0]});
}

void emit_transpose(Emitter& e, const ir::Function& f) {
  set_attr(e.node("Transpose", {f.inputs.at(0)}, {f.outputs.at(0)}, e.node_name("Transpose")), "perm",
           f.attrs.get_ints("axes", {}));
}

void emit_concat(Emitter& e, const ir::Function& f) {
  int64_t axis = norm_axis(f.attrs.get_int("axis", 0), e.shape(f.outputs.at(0)).size());
  set_attr(e.node("Concat", f.inputs, {f.outputs.at(0)}, e.node_name("Concat")), "axis", axis);
}

void emit_split(Emitter& e, const ir::Function& f) {
  int64_t axis = norm_axis(f.attrs.get_int("axis", 0), e.shape(f.inputs.at(0)).size());
  std::vector<std::string> parts;
  for (const auto& o : f.outputs) parts.push_back(e.fresh(o, "split"));
  onnx::NodeProto* n = e.node("Split", {f.inputs.at(0)}, parts, e.node_name("Split"));
  set_attr(n, "axis", axis);
  for (size_t i = 0; i < f.outputs.size(); ++i) squeeze_like(e, "Squeeze", parts[i], f.outputs[i], {axis});
}

void emit_stack(Emitter& e, const ir::Function& f) {
  int64_t axis = norm_axis(f.attrs.get_int("axis", 0), e.shape(f.outputs.at(0)).size());
  std::vector<std::string> parts;
  for (const auto& i : f.inputs) {
    parts.push_back(e.fresh(i, "unsqueeze"));
    squeeze_like(e, "Unsqueeze", i, parts.back(), {axis});
  }
  set_attr(e.node("Concat", parts, {f.outputs.at(0)}, e.node_name("Concat")), "axis", axis);
}

void emit_slice(Emitter& e, const ir::Function& f) {
  const Shape& xs = e.shape(f.inputs.at(0));
  std::vector<int64_t> start = f.attrs.get_ints("start", {});
  std::vector<int64_t> stop = f.attrs.get_ints("stop", {});
  std::vector<int64_t> step = f.attrs.get_ints("step", std::vector<int64_t>(start.size(), 1));
  std::vector<int64_t> axes(start.size());
  for (size_t i = 0; i < axes.size(); ++i) axes[i] = int64_t(xs.size() - start.size() + i);
  bool unit_steps = std::all_of(step.begin(), step.end(), [](int64_t s) { return s == 1; });
  if (e.table() < 10) {
    NN_CHECK(unit_steps) << "step other than 1 needs opset 10 or later";
    onnx::NodeProto* n = e.node("Slice", {f.inputs[0]}, {f.outputs.at(0)}, e.node_name("Slice"));
    set_attr(n, "axes", axes);
    set_attr(n, "ends", stop);
    set_attr(n, "starts", start);
    return;
  }
  const std::string& y = f.outputs.at(0);  // upstream: four INT64 Constant nodes
  std::vector<std::string> in = {f.inputs[0], e.int64_constant(y, start), e.int64_constant(y, stop),
                                 e.int64_constant(y, axes), e.int64_constant(y, step)};
  e.node("Slice", in, {f.outputs.at(0)}, e.node_name("Slice"));
}

void emit_pad(Emitter& e, const ir::Function& f) {
  const Shape& xs = e.shape(f.inputs.at(0));
  std::vector<int64_t> width = f.attrs.get_ints("pad_width", {});
  std::string mode = f.attrs.get_string("mode", "constant");
  NN_CHECK(mode == "constant" || mode == "reflect" || mode == "edge")
      << "pad mode '" << mode << "' has no ONNX equivalent";
  size_t k = width.size() / 2;
  std::vector<int64_t> pads(2 * xs.size(), 0);
  for (size_t i = 0; i < k; ++i) {
    pads[xs.size() - k + i] = width[2 * i];
    pads[2 * xs.size() - k + i] = width[2 * i + 1];
  }
  float value = float(f.attrs.get_float("constant_value", 0.0));
  if (e.table() >= 11) {
    const std::string& y = f.outputs.at(0);  // upstream: Constant nodes for pads and value
    std::vector<std::string> in = {f.inputs[0], e.int64_constant(y, pads)};
    if (mode == "constant") in.push_back(e.float_constant(y, {value}, {}, "value"));
    set_attr(e.node("Pad", in, {f.outputs.at(0)}, e.node_name("Pad")), "mode", mode);
    return;
  }
  onnx::NodeProto* n = e.node("Pad", {f.inputs[0]}, {f.outputs.at(0)}, e.node_name("Pad"));
  set_attr(n, "mode", mode);
  set_attr(n, "pads", pads);
  set_attr(n, "value", value);
}

void emit_tile(Emitter& e, const ir::Function& f) {
  const Shape& xs = e.shape(f.inputs.at(0));
  std::vector<int64_t> reps = f.attrs.get_ints("reps", {});
  std::string x = f.inputs[0];
  if (reps.size() > xs.size()) {
    Shape padded(reps.size() - xs.size(), 1);
    padded.insert(padded.end(), xs.begin(), xs.end());
    x = e.reshape(x, padded);
  }
  while (reps.size() < xs.size()) reps.insert(reps.begin(), 1);
  e.node("Tile", {x, e.int64_initializer("reps", reps)}, {f.outputs.at(0)}, e.node_name("Tile"));
}

void emit_reduce(Emitter& e, const ir::Function& f) {
  std::vector<int64_t> axes = f.attrs.get_ints("axes", {});
  bool need_rank = axes.empty() || std::any_of(axes.begin(), axes.end(), [](int64_t a) { return a < 0; });
  Shape xs = need_rank ? e.shape(f.inputs.at(0)) : Shape(*std::max_element(axes.begin(), axes.end()) + 1, 1);
  std::vector<int64_t> all(xs.size());
  std::iota(all.begin(), all.end(), 0);
  if (!f.attrs.has("axes")) axes = all;
  if (f.type == "Max" || f.type == "Min") {
    NN_CHECK(!f.attrs.get_bool("with_index", false)) << "with_index is not supported for ONNX export";
    if (!f.attrs.has("axes")) axes = f.attrs.has("axis") ? std::vector<int64_t>{f.attrs.get_int("axis", 0)} : all;
  }
  for (auto& a : axes) a = norm_axis(a, xs.size());
  if (f.attrs.get_bool("only_index", false)) {  // ArgMax/ArgMin, the indices cast back to nnabla's float values
    NN_CHECK(axes.size() == 1) << "only_index over " << axes.size() << " axes is not supported for ONNX export";
    const char* arg = f.type == "Max" ? "ArgMax" : "ArgMin";
    const std::string idx = e.fresh(f.outputs.at(0), arg);
    onnx::NodeProto* n = e.node(arg, {f.inputs[0]}, {idx}, e.node_name(arg));
    set_attr(n, "axis", axes[0]);
    set_attr(n, "keepdims", int64_t(f.attrs.get_bool("keep_dims", false) ? 1 : 0));
    e.cast(idx, onnx::TensorProto::FLOAT, f.outputs.at(0));
    return;
  }
  const char* op = f.type == "Sum"    ? "ReduceSum"
                   : f.type == "Mean" ? "ReduceMean"
                   : f.type == "Max"  ? "ReduceMax"
                   : f.type == "Min"  ? "ReduceMin"
                                      : "ReduceProd";
  int64_t keep = f.attrs.get_bool("keep_dims", false) ? 1 : 0;
  if (e.table() >= 13 && f.type == "Sum") {
    set_attr(e.node(op, {f.inputs[0], e.int64_initializer("axes", axes)}, {f.outputs.at(0)}, e.node_name(op)),
             "keepdims", keep);
    return;
  }
  onnx::NodeProto* n = e.node(op, {f.inputs[0]}, {f.outputs.at(0)}, e.node_name(op));
  set_attr(n, "axes", axes);
  set_attr(n, "keepdims", keep);
}

// BroadcastTo(x, y, axis): y unsqueezed to x's rank, so the consuming binary op broadcasts it (opset >= 7).
void emit_broadcast_to(Emitter& e, const ir::Function& f) {
  const Shape& xs = e.shape(f.inputs.at(0));
  const Shape& ys = e.shape(f.inputs.at(1));
  int64_t axis = f.attrs.get_int("axis", -1);
  if (axis < 0) axis = int64_t(xs.size() - ys.size());
  std::vector<int64_t> axes;
  for (int64_t i = 0; i < int64_t(xs.size()); ++i)
    if (i < axis || i >= axis + int64_t(ys.size())) axes.push_back(i);
  if (axes.empty()) {
    e.node("Identity", {f.inputs[1]}, {f.outputs.at(0)});
    return;
  }
  squeeze_like(e, "Unsqueeze", f.inputs[1], f.outputs.at(0), axes, e.node_name("broadcast_unsqueeze"));
}

void emit_broadcast(Emitter& e, const ir::Function& f) {
  const Shape& ys = e.shape(f.outputs.at(0));
  std::string shape = e.int64_initializer("shape", std::vector<int64_t>(ys.begin(), ys.end()));
  e.node("Expand", {f.inputs.at(0), shape}, {f.outputs[0]}, e.node_name("Expand"));
}

}  // namespace

void add_array_rules(std::vector<Rule>& rules) {
  rules.push_back({"Reshape", 6, emit_reshape});
  rules.push_back({"Transpose", 6, emit_transpose});
  rules.push_back({"Concatenate", 6, emit_concat});
  rules.push_back({"Split", 6, emit_split});
  rules.push_back({"Stack", 6, emit_stack});
  rules.push_back({"Slice", 6, emit_slice});
  rules.push_back({"Pad", 6, emit_pad});
  rules.push_back({"Tile", 6, emit_tile});
  for (const char* t : {"Sum", "Mean", "Max", "Min", "Prod"}) rules.push_back({t, 6, emit_reduce});
  rules.push_back({"BroadcastTo", 7, emit_broadcast_to});
  rules.push_back({"Broadcast", 9, emit_broadcast});
}

}  // namespace nn::formats::onnx_export
