// ONNX layout operators: Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat, Split, Slice, Gather,
// Tile, Expand, Pad, DepthToSpace, SpaceToDepth.
#include <algorithm>
#include <limits>

#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {

namespace {

void reshape_output(ImportContext& ctx, const NodeView& node, const Shape& shape) {
  const std::string x = node.input(0);
  NN_CHECK(shape_size(shape) == shape_size(ctx.shape(x)))
      << "cannot reshape " << to_string(ctx.shape(x)) << " to " << to_string(shape);
  if (ctx.is_constant(x)) {  // keep integer payloads (shape tensors) exact
    ctx.add_constant(node.output(0), shape, ctx.const_values(x), ctx.const_ints(x), ctx.data_type(x));
    return;
  }
  reshape_to(ctx, x, shape, node.output(0));
}

void import_reshape(ImportContext& ctx, const NodeView& node) {
  const Shape& in = ctx.shape(node.input(0));
  std::vector<int64_t> target = ctx.opset() < 5 ? node.get_ints("shape") : ctx.const_ints(node.input(1));
  const bool allowzero = node.get_int("allowzero", 0) != 0;
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == 0 && !allowzero) target[i] = in.at(i);
    if (target[i] == -1)
      infer = int64_t(i);
    else
      NN_CHECK(target[i] >= 0 && !__builtin_mul_overflow(known, target[i], &known))
          << "Reshape target " << to_string(target) << " is not a valid shape";
  }
  if (infer >= 0) target[size_t(infer)] = known == 0 ? 0 : shape_size(in) / known;
  reshape_output(ctx, node, target);
}

void import_flatten(ImportContext& ctx, const NodeView& node) {
  const Shape& in = ctx.shape(node.input(0));
  const int64_t rank = int64_t(in.size());
  int64_t axis = node.get_int("axis", 1);
  if (axis < 0) axis += rank;
  NN_CHECK(axis >= 0 && axis <= rank) << "axis " << axis << " is out of range for rank " << rank;
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i) (i < axis ? outer : inner) *= in[size_t(i)];
  reshape_output(ctx, node, {outer, inner});
}

void import_squeeze(ImportContext& ctx, const NodeView& node) {
  const Shape& in = ctx.shape(node.input(0));
  std::vector<int64_t> axes = ctx.opset() >= 13 ? ints_input_or(ctx, node, 1, {}) : node.get_ints("axes");
  for (auto& a : axes) a = normalize_axis(a, int64_t(in.size()));
  Shape out;
  for (int64_t i = 0; i < int64_t(in.size()); ++i) {
    const bool listed = std::find(axes.begin(), axes.end(), i) != axes.end();
    if (listed) {
      NN_CHECK(in[size_t(i)] == 1) << "cannot squeeze axis " << i << " of size " << in[size_t(i)];
    }
    if (listed || (axes.empty() && in[size_t(i)] == 1)) continue;
    out.push_back(in[size_t(i)]);
  }
  reshape_output(ctx, node, out);
}

void import_unsqueeze(ImportContext& ctx, const NodeView& node) {
  const Shape& in = ctx.shape(node.input(0));
  std::vector<int64_t> axes = ctx.opset() >= 13 ? ctx.const_ints(node.input(1)) : node.get_ints("axes");
  const int64_t rank = int64_t(in.size() + axes.size());
  for (auto& a : axes) a = normalize_axis(a, rank);
  Shape out;
  size_t next = 0;
  for (int64_t i = 0; i < rank; ++i)
    out.push_back(std::find(axes.begin(), axes.end(), i) != axes.end() ? 1 : in.at(next++));
  reshape_output(ctx, node, out);
}

void import_transpose(ImportContext& ctx, const NodeView& node) {
  const int64_t rank = ctx.rank(node.input(0));
  std::vector<int64_t> perm = node.get_ints("perm");
  if (perm.empty())
    for (int64_t i = rank - 1; i >= 0; --i) perm.push_back(i);
  ctx.emit1("Transpose", {node.input(0)}, {{"axes", perm}}, node.output(0));
}

void import_concat(ImportContext& ctx, const NodeView& node) {
  const int64_t rank = ctx.rank(node.input(0));
  const int64_t axis = normalize_axis(node.get_int("axis", 1), rank);
  std::vector<std::string> inputs;
  for (size_t i = 0; i < node.num_inputs(); ++i)
    if (shape_size(ctx.shape(node.input(i))) > 0 || node.num_inputs() == 1) inputs.push_back(node.input(i));
  ctx.emit1("Concatenate", inputs, {{"axis", axis}}, node.output(0));
}

// nnabla's Slice reads start/stop/step for the trailing axes: untouched leading axes (the batch) are left
// out, so the arguments do not depend on their sizes.
std::string emit_slice(ImportContext& ctx, const std::string& x, std::vector<int64_t> start,
                       std::vector<int64_t> stop, std::vector<int64_t> step, const std::string& output) {
  const Shape& xs = ctx.shape(x);
  size_t lead = 0;
  while (lead + 1 < start.size() && start[lead] == 0 && stop[lead] == xs[lead] && step[lead] == 1) ++lead;
  const auto tail = [&](const std::vector<int64_t>& v) {
    return std::vector<int64_t>(v.begin() + long(lead), v.end());
  };
  return ctx.emit1("Slice", {x}, {{"start", tail(start)}, {"stop", tail(stop)}, {"step", tail(step)}}, output);
}

std::string slice(ImportContext& ctx, const std::string& x, std::vector<int64_t> start, std::vector<int64_t> stop,
                  const std::string& output) {
  std::vector<int64_t> step(start.size(), 1);
  return emit_slice(ctx, x, start, stop, step, output);
}

void import_split(ImportContext& ctx, const NodeView& node) {
  const Shape in = ctx.shape(node.input(0));
  const int64_t axis = normalize_axis(node.get_int("axis", 0), int64_t(in.size()));
  std::vector<int64_t> sizes = ctx.opset() >= 13 ? ints_input_or(ctx, node, 1, {}) : node.get_ints("split");
  const size_t n = node.num_outputs();
  if (sizes.empty()) sizes.assign(n, in[size_t(axis)] / int64_t(n));
  NN_CHECK(sizes.size() == n) << "split has " << sizes.size() << " sizes for " << n << " outputs";
  int64_t offset = 0;
  for (size_t j = 0; j < n; ++j) {
    std::vector<int64_t> start(in.size(), 0), stop(in.begin(), in.end());
    start[size_t(axis)] = offset;
    stop[size_t(axis)] = offset + sizes[j];
    offset += sizes[j];
    slice(ctx, node.input(0), start, stop, node.output(j));
  }
}

void import_slice(ImportContext& ctx, const NodeView& node) {
  std::string x = node.input(0);
  const Shape in = ctx.shape(x);
  const int64_t rank = int64_t(in.size());
  const bool attrs = ctx.opset() < 10;
  const std::vector<int64_t> starts = attrs ? node.get_ints("starts") : ctx.const_ints(node.input(1));
  const std::vector<int64_t> ends = attrs ? node.get_ints("ends") : ctx.const_ints(node.input(2));
  std::vector<int64_t> axes = attrs ? node.get_ints("axes") : ints_input_or(ctx, node, 3, {});
  std::vector<int64_t> steps = attrs ? std::vector<int64_t>{} : ints_input_or(ctx, node, 4, {});
  if (axes.empty())
    for (int64_t i = 0; i < int64_t(starts.size()); ++i) axes.push_back(i);
  if (steps.empty()) steps.assign(starts.size(), 1);
  std::vector<int64_t> start(size_t(rank), 0), stop(in.begin(), in.end()), step(size_t(rank), 1), flip;
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t a = normalize_axis(axes[i], rank);
    const int64_t dim = in[size_t(a)];
    int64_t s = starts.at(i), e = ends.at(i), st = steps.at(i);
    NN_CHECK(st != 0) << "slice step 0";
    if (s < 0) s += dim;
    if (e < 0) e += dim;
    if (st > 0) {
      s = std::clamp<int64_t>(s, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
    } else {  // walk the flipped axis forwards
      s = std::clamp<int64_t>(s, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      flip.push_back(a);
      s = dim - 1 - s;
      e = dim - 1 - e;
      st = -st;
    }
    start[size_t(a)] = s;
    stop[size_t(a)] = std::max(s, e);
    step[size_t(a)] = st;
  }
  if (!flip.empty()) x = ctx.emit1("Flip", {x}, {{"axes", flip}});
  emit_slice(ctx, x, start, stop, step, node.output(0));
}

void import_gather(ImportContext& ctx, const NodeView& node) {
  const Shape in = ctx.shape(node.input(0));
  const int64_t axis = normalize_axis(node.get_int("axis", 0), int64_t(in.size()));
  std::string indices = node.input(1);
  if (ctx.is_constant(indices)) {  // normalise negative indices
    std::vector<int64_t> idx = ctx.const_ints(indices);
    std::vector<float> values(idx.size());
    for (size_t i = 0; i < idx.size(); ++i) {
      if (idx[i] < 0) idx[i] += in[size_t(axis)];
      NN_CHECK(idx[i] >= 0 && idx[i] < in[size_t(axis)]) << "Gather index out of range";
      values[i] = float(idx[i]);
    }
    indices = ctx.helper_name("");
    ctx.add_constant(indices, ctx.shape(node.input(1)), values, idx, ::onnx::TensorProto::INT64);
  }
  const std::string data = node.input(0);
  if (ctx.is_constant(data) && ctx.is_constant(indices) && !ctx.const_ints(data).empty()) {
    // Exact integer gather (shape arithmetic): index the integer payload directly.
    const std::vector<int64_t> d = ctx.const_ints(data), idx = ctx.const_ints(indices);
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= in[size_t(i)];
    for (size_t i = size_t(axis) + 1; i < in.size(); ++i) inner *= in[i];
    std::vector<int64_t> out;
    for (int64_t o = 0; o < outer; ++o)
      for (auto j : idx)
        for (int64_t r = 0; r < inner; ++r) out.push_back(d[size_t((o * in[size_t(axis)] + j) * inner + r)]);
    Shape shape(in.begin(), in.begin() + axis);
    const Shape is = ctx.shape(indices);
    shape.insert(shape.end(), is.begin(), is.end());
    shape.insert(shape.end(), in.begin() + axis + 1, in.end());
    std::vector<float> values(out.begin(), out.end());
    ctx.add_constant(node.output(0), shape, values, out, ::onnx::TensorProto::INT64);
    return;
  }
  ctx.emit1("Gather", {data, indices}, {{"axis", axis}, {"batch_dims", int64_t(0)}}, node.output(0));
}

void import_tile(ImportContext& ctx, const NodeView& node) {
  const std::vector<int64_t> reps = ctx.opset() >= 6 ? ctx.const_ints(node.input(1)) : std::vector<int64_t>{};
  ctx.emit1("Tile", {node.input(0)}, {{"reps", reps}}, node.output(0));
}

void import_expand(ImportContext& ctx, const NodeView& node) {
  const std::vector<int64_t> shape = ctx.const_ints(node.input(1));
  const Shape out = broadcast_shapes(ctx.shape(node.input(0)), shape);
  std::string x = align_rank(ctx, node.input(0), int64_t(out.size()));
  ctx.emit1(ctx.shape(x) == out ? "Identity" : "Broadcast", {x},
            ctx.shape(x) == out ? Attrs{} : Attrs{{"shape", std::vector<int64_t>(out)}}, node.output(0));
}

void import_pad(ImportContext& ctx, const NodeView& node) {
  const int64_t rank = ctx.rank(node.input(0));
  const std::vector<int64_t> pads =
      ctx.opset() < 11 ? node.get_ints(ctx.opset() < 2 ? "paddings" : "pads") : ctx.const_ints(node.input(1));
  NN_CHECK(int64_t(pads.size()) == 2 * rank) << "pads has " << pads.size() << " values for rank " << rank;
  std::vector<int64_t> width;
  for (int64_t i = 0; i < rank; ++i) {
    NN_CHECK_CODE(pads[size_t(i)] >= 0 && pads[size_t(rank + i)] >= 0, ErrorCode::kUnsupported)
        << "negative pads are not supported";
    width.push_back(pads[size_t(i)]);
    width.push_back(pads[size_t(rank + i)]);
  }
  const std::string mode = node.get_string("mode", "constant");
  NN_CHECK_CODE(mode == "constant" || mode == "reflect" || mode == "edge", ErrorCode::kUnsupported)
      << "Pad mode " << mode << " is not supported";
  double value = node.get_float("value", 0.0f);
  if (ctx.opset() >= 11 && !node.input(2).empty()) value = ctx.const_values(node.input(2)).at(0);
  ctx.emit1(
      "Pad", {node.input(0)},
      {{"pad_width", width}, {"mode", mode == "edge" ? std::string("repeat") : mode}, {"constant_value", value}},
      node.output(0));
}

void depth_space(ImportContext& ctx, const NodeView& node, bool to_space) {
  const Shape s = ctx.shape(node.input(0));
  NN_CHECK(s.size() == 4) << node.op() << " needs a 4-D input, got " << to_string(s);
  const int64_t b = node.get_int("blocksize", 1), n = s[0], c = s[1], h = s[2], w = s[3];
  std::string y;
  if (to_space) {
    const bool crd = node.get_string("mode", "DCR") == "CRD";
    y = reshape_to(ctx, node.input(0),
                   crd ? Shape{n, c / (b * b), b, b, h, w} : Shape{n, b, b, c / (b * b), h, w});
    y = ctx.emit1(
        "Transpose", {y},
        {{"axes", crd ? std::vector<int64_t>{0, 1, 4, 2, 5, 3} : std::vector<int64_t>{0, 3, 4, 1, 5, 2}}});
    reshape_to(ctx, y, {n, c / (b * b), h * b, w * b}, node.output(0));
  } else {
    y = reshape_to(ctx, node.input(0), {n, c, h / b, b, w / b, b});
    y = ctx.emit1("Transpose", {y}, {{"axes", std::vector<int64_t>{0, 3, 5, 1, 2, 4}}});
    reshape_to(ctx, y, {n, c * b * b, h / b, w / b}, node.output(0));
  }
}

}  // namespace

void add_tensor_rules(std::vector<OpRule>& rules) {
  rules.push_back({"Reshape", 1, 17, import_reshape});
  rules.push_back({"Flatten", 1, 17, import_flatten});
  rules.push_back({"Squeeze", 1, 17, import_squeeze});
  rules.push_back({"Unsqueeze", 1, 17, import_unsqueeze});
  rules.push_back({"Transpose", 1, 17, import_transpose});
  rules.push_back({"Concat", 1, 17, import_concat});
  rules.push_back({"Split", 2, 17, import_split});
  rules.push_back({"Slice", 1, 17, import_slice});
  rules.push_back({"Gather", 1, 17, import_gather});
  rules.push_back({"Tile", 6, 17, import_tile});
  rules.push_back({"Expand", 8, 17, import_expand});
  rules.push_back({"Pad", 1, 17, import_pad});
  rules.push_back({"DepthToSpace", 1, 17, [](ImportContext& c, const NodeView& n) { depth_space(c, n, true); }});
  rules.push_back({"SpaceToDepth", 1, 17, [](ImportContext& c, const NodeView& n) { depth_space(c, n, false); }});
}

}  // namespace nn::formats::onnx
