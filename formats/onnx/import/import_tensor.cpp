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
  // Keep integer payloads (shape tensors) exact, and their symbols; a reshape whose size follows the inputs is
  // computed in the network (ImportContext::computed_at_run_time).
  if (ctx.is_constant(x) && !ctx.computed_at_run_time(node.output(0))) {
    const SymValues* sym = ctx.symbols(x);
    const SymValues kept = sym ? *sym : SymValues{};
    ctx.add_constant(node.output(0), shape, ctx.stand_in_values(x), ctx.stand_in_ints(x), ctx.data_type(x));
    ctx.set_symbols(node.output(0), kept);
    return;
  }
  reshape_to(ctx, x, shape, node.output(0));
}

// A target shape that follows a data-sized axis: that dim becomes -1 (inferred at run time), the others must be
// known.
void reshape_symbolic(ImportContext& ctx, const NodeView& node, const SymValues& sym) {
  std::vector<int64_t> target = ctx.stand_in_ints(node.input(1));
  const std::string x = node.input(0);
  const Shape& in = ctx.shape(x);
  int64_t at = -1, infer = -1, others = 1;
  for (size_t i = 0; i < sym.size(); ++i) {
    if (sym_is_const(sym[i])) {
      if (target[i] == 0 && node.get_int("allowzero", 0) == 0) target[i] = in.at(i);
      if (target[i] == -1)
        infer = int64_t(i);
      else
        others *= target[i];
      continue;
    }
    NN_CHECK_CODE(at < 0, ErrorCode::kUnsupported)
        << "shape ('" << node.input(1) << "') has more than one dim known only at run time";
    at = int64_t(i);
  }
  NN_CHECK_CODE(!ctx.is_constant(x), ErrorCode::kUnsupported)
      << "a constant reshaped to a shape known only at run time";
  if (infer >= 0) {  // (n, -1) of x with n on its data axis: the -1 is the rest of x's static dims
    int64_t rest = 1;
    for (size_t d = 0; d < in.size(); ++d)
      if (int64_t(d) != ctx.data_axis(x)) rest *= in[d];
    NN_CHECK_CODE(ctx.data_axis(x) >= 0 && sym_equal(sym[size_t(at)], ctx.dim_symbol(x, ctx.data_axis(x))) &&
                      others > 0 && rest % others == 0,
                  ErrorCode::kUnsupported)
        << "shape ('" << node.input(1) << "') has a -1 besides a dim known only at run time ("
        << sym_text(sym[size_t(at)]) << ") that is not the input's data-sized length";
    target[size_t(infer)] = rest / others;
  }
  target[size_t(at)] = -1;
  ctx.emit1("Reshape", {node.input(0)}, {{"shape", target}}, node.output(0));
}

void import_reshape(ImportContext& ctx, const NodeView& node) {
  const Shape& in = ctx.shape(node.input(0));
  if (ctx.opset() >= 5 && !ctx.has_values(node.input(1))) {  // a shape computed from the data: read when it runs
    ctx.emit1("ONNXReshape", {node.input(0), node.input(1)}, {{"allowzero", node.get_int("allowzero", 0) != 0}},
              node.output(0));
    return;
  }
  if (ctx.opset() >= 5)
    if (const SymValues* sym = ctx.symbols(node.input(1))) return reshape_symbolic(ctx, node, *sym);
  std::vector<int64_t> target = ctx.opset() < 5 ? node.get_ints("shape") : ctx.const_ints(node.input(1));
  const bool allowzero = node.get_int("allowzero", 0) != 0;
  const bool follows_input =
      std::any_of(target.begin(), target.end(), [&](int64_t d) { return d == -1 || (d == 0 && !allowzero); });
  if (follows_input && shape_follows_run(ctx, node.input(0))) {  // 0 and -1 take the input's dims when it runs
    ctx.emit1("ONNXReshape",
              {node.input(0), ctx.constant({int64_t(target.size())}, {target.begin(), target.end()})},
              {{"allowzero", allowzero}}, node.output(0));
    return;
  }
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == 0 && !allowzero) target[i] = in.at(i);
    if (target[i] == -1)
      infer = int64_t(i);
    else
      NN_CHECK(target[i] >= 0 && !__builtin_mul_overflow(known, target[i], &known))
          << "Reshape target " << to_string(target) << " is not a valid shape";
  }
  const int64_t sized = ctx.data_axis(node.input(0));
  if (infer >= 0 && sized >= 0 && !ctx.is_constant(node.input(0))) {
    // A data-sized input: the -1 takes what its run-time length leaves (nnabla's Reshape infers it at each run).
    const std::vector<int64_t> given = ctx.opset() < 5 ? node.get_ints("shape") : ctx.const_ints(node.input(1));
    NN_CHECK_CODE(size_t(sized) >= given.size() || given[size_t(sized)] != 0 || allowzero, ErrorCode::kUnsupported)
        << "Reshape target " << to_string(given) << " copies (0) the input's axis " << sized
        << ", whose length is known only at run time, besides a -1";
    target[size_t(infer)] = -1;
    ctx.emit1("Reshape", {node.input(0)}, {{"shape", target}}, node.output(0));
    return;
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
  if (shape_follows_run(ctx, node.input(0))) {
    reshape_following_input(ctx, node.input(0), {{0, axis}, {axis, rank}}, node.output(0));
    return;
  }
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i) (i < axis ? outer : inner) *= in[size_t(i)];
  reshape_output(ctx, node, {outer, inner});
}

void import_squeeze(ImportContext& ctx, const NodeView& node) {
  const Shape& in = ctx.shape(node.input(0));
  std::vector<int64_t> axes = ctx.opset() >= 13 ? ints_input_or(ctx, node, 1, {}) : node.get_ints("axes");
  for (auto& a : axes) a = normalize_axis(a, int64_t(in.size()));
  Shape out;
  std::vector<DimRange> kept;  // without axes: the axes of size 1 at import
  for (int64_t i = 0; i < int64_t(in.size()); ++i) {
    const bool listed = std::find(axes.begin(), axes.end(), i) != axes.end();
    if (listed) {
      NN_CHECK(in[size_t(i)] == 1) << "cannot squeeze axis " << i << " of size " << in[size_t(i)];
    }
    if (listed || (axes.empty() && in[size_t(i)] == 1)) continue;
    out.push_back(in[size_t(i)]);
    kept.push_back({i, i + 1});
  }
  if (shape_follows_run(ctx, node.input(0)))
    reshape_following_input(ctx, node.input(0), kept, node.output(0));
  else
    reshape_output(ctx, node, out);
}

void import_unsqueeze(ImportContext& ctx, const NodeView& node) {
  const Shape& in = ctx.shape(node.input(0));
  std::vector<int64_t> axes = ctx.opset() >= 13 ? ctx.const_ints(node.input(1)) : node.get_ints("axes");
  const int64_t rank = int64_t(in.size() + axes.size());
  for (auto& a : axes) a = normalize_axis(a, rank);
  Shape out;
  std::vector<DimRange> dims;
  int64_t next = 0;
  for (int64_t i = 0; i < rank; ++i) {
    const bool inserted = std::find(axes.begin(), axes.end(), i) != axes.end();
    out.push_back(inserted ? 1 : in.at(size_t(next)));
    dims.push_back(inserted ? DimRange{} : DimRange{next, next + 1});
    next += inserted ? 0 : 1;
  }
  if (shape_follows_run(ctx, node.input(0)))
    reshape_following_input(ctx, node.input(0), dims, node.output(0));
  else
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
    if (shape_size(ctx.shape(node.input(i))) > 0 || ctx.data_axis(node.input(i)) >= 0 ||
        shape_follows_run(ctx, node.input(i)) || node.num_inputs() == 1)
      inputs.push_back(node.input(i));  // empty inputs drop out, unless they are empty only at import
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

// Whether a Slice's starts, ends or steps are computed from the data (not constants, nor run-time sizes that
// the engine's Slice follows).
bool slices_at_run_time(ImportContext& ctx, const NodeView& node) {
  if (ctx.opset() < 10) return false;
  const auto data = [&](size_t i) { return !node.input(i).empty() && !ctx.has_values(node.input(i)); };
  // In a sub-graph, constant positions too: they clamp to the axes' lengths when it runs.
  return data(1) || data(2) || data(4) || shape_follows_run(ctx, node.input(0));
}

// ONNXSlice reads starts, ends and steps when it runs; its output's size follows their values.
void import_run_time_slice(ImportContext& ctx, const NodeView& node) {
  const int64_t n = shape_size(ctx.shape(node.input(1)));
  std::vector<int64_t> axes = ints_input_or(ctx, node, 3, {});
  if (axes.empty())
    for (int64_t i = 0; i < n; ++i) axes.push_back(i);
  const std::string steps =
      node.input(4).empty() ? ctx.constant({n}, std::vector<float>(size_t(n), 1.f)) : node.input(4);
  ctx.emit1("ONNXSlice", {node.input(0), node.input(1), node.input(2), steps}, {{"axes", axes}}, node.output(0));
}

void import_slice(ImportContext& ctx, const NodeView& node) {
  if (slices_at_run_time(ctx, node)) return import_run_time_slice(ctx, node);
  std::string x = node.input(0);
  const Shape in = ctx.shape(x);
  const int64_t rank = int64_t(in.size());
  const bool attrs = ctx.opset() < 10;
  const std::vector<int64_t> starts = attrs ? node.get_ints("starts") : ctx.const_ints(node.input(1));
  const SymValues* end_sym = attrs ? nullptr : ctx.symbols(node.input(2));
  std::vector<int64_t> ends = attrs ? node.get_ints("ends") : ctx.stand_in_ints(node.input(2));
  if (!attrs && !end_sym) ctx.const_ints(node.input(2));  // refuses ends that are not constants
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
    if (end_sym && !sym_is_const(end_sym->at(i))) {
      // An end that follows run-time sizes: the length of the data-sized axis it slices (to the end), or the
      // minimum of it and a constant (that constant, which the engine clamps at each run).
      const Sym& end = end_sym->at(i);
      const Sym length = ctx.dim_symbol(x, a);
      e = -1;
      if (sym_equal(end, length)) e = int64_t(1) << 30;
      if (end->kind == SymExpr::Kind::kMin && end->args.size() == 2)
        for (size_t k = 0; k < 2; ++k)
          if (sym_is_const(end->args[k]) && sym_equal(end->args[1 - k], length)) e = end->args[k]->value;
      NN_CHECK_CODE(e >= 0 && a == ctx.data_axis(x), ErrorCode::kUnsupported)
          << "end ('" << node.input(2) << "') follows run-time sizes as " << sym_text(end)
          << ", which is neither the length of axis " << a << " (" << sym_text(length)
          << ") nor the minimum of it and a constant";
    }
    if (a == ctx.data_axis(x)) {  // a run-time length: the engine's Slice clamps stop to it at each run
      NN_CHECK_CODE(s >= 0 && e >= 0 && st > 0, ErrorCode::kUnsupported)
          << "axis " << a << " has a length known only at run time; only non-negative starts and ends with a "
          << "positive step slice it";
      start[size_t(a)] = s;
      stop[size_t(a)] = std::min<int64_t>(e, int64_t(1) << 30);
      step[size_t(a)] = st;
      continue;
    }
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
  const int32_t type = ctx.data_type(data);
  const bool integer = type != ::onnx::TensorProto::FLOAT && type != ::onnx::TensorProto::DOUBLE &&
                       type != ::onnx::TensorProto::FLOAT16 && type != ::onnx::TensorProto::BFLOAT16;
  if (integer && ctx.is_constant(data) && ctx.is_constant(indices) && !ctx.stand_in_ints(data).empty()) {
    // Exact integer gather (shape arithmetic): index the integer payload directly, and its symbols.
    const std::vector<int64_t> d = ctx.stand_in_ints(data), idx = ctx.const_ints(indices);
    const SymValues* dsym = ctx.symbols(data);
    SymValues sym;
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= in[size_t(i)];
    for (size_t i = size_t(axis) + 1; i < in.size(); ++i) inner *= in[i];
    std::vector<int64_t> out;
    for (int64_t o = 0; o < outer; ++o)
      for (auto j : idx)
        for (int64_t r = 0; r < inner; ++r) {
          const size_t at = size_t((o * in[size_t(axis)] + j) * inner + r);
          out.push_back(d[at]);
          if (dsym) sym.push_back((*dsym)[at]);
        }
    Shape shape(in.begin(), in.begin() + axis);
    const Shape is = ctx.shape(indices);
    shape.insert(shape.end(), is.begin(), is.end());
    shape.insert(shape.end(), in.begin() + axis + 1, in.end());
    std::vector<float> values(out.begin(), out.end());
    ctx.add_constant(node.output(0), shape, values, out, type);
    ctx.set_symbols(node.output(0), sym);
    return;
  }
  ctx.emit1("Gather", {data, indices}, {{"axis", axis}, {"batch_dims", int64_t(0)}}, node.output(0));
}

void import_tile(ImportContext& ctx, const NodeView& node) {
  const std::vector<int64_t> reps = ctx.opset() >= 6 ? ctx.const_ints(node.input(1)) : std::vector<int64_t>{};
  ctx.emit1("Tile", {node.input(0)}, {{"reps", reps}}, node.output(0));
}

// Expand to a shape that follows data-sized axes: x times ones of that shape (x * 1 is x, infinities and NaN
// included); the ones are static where every such dim is x's own (data-sized) dim, which the broadcast keeps.
void expand_symbolic(ImportContext& ctx, const NodeView& node, const SymValues& sym) {
  std::vector<int64_t> shape = ctx.stand_in_ints(node.input(1));
  std::string x =
      align_rank(ctx, node.input(0), std::max<int64_t>(ctx.rank(node.input(0)), int64_t(shape.size())));
  const int64_t rank = ctx.rank(x), lead = rank - int64_t(shape.size());
  Shape ones(size_t(rank), 1);
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t axis = lead + int64_t(i);
    if (!sym_is_const(sym[i])) {
      if (!sym_equal(sym[i], ctx.dim_symbol(x, axis))) {  // x broadcast along it: ones of the run-time shape
        ctx.emit1("Mul2", {x, fill_symbolic_shape(ctx, node.input(1), sym, 1.0f)}, {}, node.output(0));
        ctx.set_data_type(node.output(0), ctx.data_type(node.input(0)));
        return;
      }
      continue;
    }
    NN_CHECK_CODE(ctx.data_axis(x) != axis, ErrorCode::kUnsupported)
        << "axis " << axis << " of the input has a length known only at run time; the shape gives it " << shape[i];
    ones[size_t(axis)] = shape[i] == 1 ? 1 : shape[i];
  }
  ctx.emit1("Mul2", {x, filled_constant(ctx, ones, 1.0f)}, {}, node.output(0));
  ctx.set_data_type(node.output(0), ctx.data_type(node.input(0)));
}

void import_expand(ImportContext& ctx, const NodeView& node) {
  if (const SymValues* sym = ctx.symbols(node.input(1))) return expand_symbolic(ctx, node, *sym);
  if (!ctx.has_values(node.input(1))) {  // a shape computed from the data: read when it runs
    ctx.emit1("ONNXExpand", {node.input(0), node.input(1)}, {}, node.output(0));
    return;
  }
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
  if (std::all_of(width.begin(), width.end(), [](int64_t w) { return w == 0; })) {
    // PyTorch writes a Pad of zeros before each AveragePool of DenseNet's transitions: a copy, and a plain-layout
    // one that sent the convolution's channels-last output back (the inference passes remove the Identity).
    ctx.emit1("Identity", {node.input(0)}, {}, node.output(0));
    return;
  }
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
