// ONNX operators evaluated at import time: Constant, ConstantOfShape, Shape, Size, Range, and the window
// generators (HannWindow, HammingWindow, BlackmanWindow).
#include <cmath>

#include "formats/onnx/common/onnx_model_file.hpp"
#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {

namespace {

void add_int_constant(ImportContext& ctx, const std::string& name, const Shape& shape,
                      const std::vector<int64_t>& v) {
  ctx.add_constant(name, shape, std::vector<float>(v.begin(), v.end()), v, ::onnx::TensorProto::INT64);
}

void import_constant(ImportContext& ctx, const NodeView& node) {
  const std::string out = node.output(0);
  if (const ::onnx::TensorProto* t = node.get_tensor("value")) {
    TensorData d = read_tensor(*t, ctx.base_dir());
    ctx.add_constant(out, d.shape, std::move(d.values), std::move(d.ints), d.data_type);
  } else if (node.has("value_float")) {
    ctx.add_constant(out, {}, {node.get_float("value_float", 0)});
  } else if (node.has("value_floats")) {
    std::vector<float> v = node.get_floats("value_floats");
    ctx.add_constant(out, {int64_t(v.size())}, v);
  } else if (node.has("value_int")) {
    add_int_constant(ctx, out, {}, {node.get_int("value_int", 0)});
  } else if (node.has("value_ints")) {
    std::vector<int64_t> v = node.get_ints("value_ints");
    add_int_constant(ctx, out, {int64_t(v.size())}, v);
  } else {
    NN_FAIL(ErrorCode::kUnsupported) << "Constant without a value, value_float(s) or value_int(s) attribute "
                                        "(sparse and string constants are not supported)";
  }
}

}  // namespace

// The value broadcast (BroadcastTo) to a shape that follows a data-sized axis, built from a tensor that has that
// length on its data axis (one dim known only at run time at most).
std::string fill_symbolic_shape(ImportContext& ctx, const std::string& shape, const SymValues& dims, float value,
                                const std::string& output) {
  const std::vector<int64_t> stand_in = ctx.stand_in_ints(shape);
  int64_t at = -1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (sym_is_const(dims[i])) continue;
    NN_CHECK_CODE(at < 0, ErrorCode::kUnsupported)
        << "shape ('" << shape << "') has more than one dim known only at run time";
    at = int64_t(i);
  }
  std::string source = ctx.ruler(dims[size_t(at)], "shape ('" + shape + "')");
  if (dims.size() > 1) {  // (1.., n, ..1) times zeros of the other dims: a tensor of the whole shape
    std::vector<int64_t> lone(dims.size(), 1);
    lone[size_t(at)] = -1;
    source = ctx.emit1("Reshape", {source}, {{"shape", lone}});
    Shape rest(stand_in.begin(), stand_in.end());
    rest[size_t(at)] = 1;
    source = ctx.emit1("Mul2", {source, filled_constant(ctx, rest, 0.0f)});
  }
  return ctx.emit1("BroadcastTo", {source, ctx.constant({}, {value})}, {{"axis", int64_t(-1)}}, output);
}

namespace {

void constant_of_symbolic_shape(ImportContext& ctx, const NodeView& node, const SymValues& dims, float value,
                                int32_t type) {
  fill_symbolic_shape(ctx, node.input(0), dims, value, node.output(0));
  ctx.set_data_type(node.output(0), type);
}

void import_constant_of_shape(ImportContext& ctx, const NodeView& node) {
  const SymValues* sym = ctx.symbols(node.input(0));
  float value = 0.0f;
  int32_t type = ::onnx::TensorProto::FLOAT;
  if (const ::onnx::TensorProto* t = node.get_tensor("value")) {
    TensorData d = read_tensor(*t, ctx.base_dir());
    NN_CHECK(d.values.size() == 1) << "ConstantOfShape value must hold one element";
    value = d.values[0];
    type = d.data_type;
  }
  if (sym) return constant_of_symbolic_shape(ctx, node, *sym, value, type);
  if (!ctx.has_values(node.input(0))) {  // a shape computed from the data: read when it runs
    ctx.emit1("ONNXConstantOfShape", {node.input(0)}, {{"value", double(value)}}, node.output(0));
    ctx.set_data_type(node.output(0), type);
    return;
  }
  const std::vector<int64_t> dims = ctx.const_ints(node.input(0));
  Shape shape(dims.begin(), dims.end());
  const size_t n = size_t(ImportContext::checked_constant_size(node.output(0), shape));
  if (ctx.computed_at_run_time(node.output(0))) {  // its size follows the inputs: made by a function
    ctx.emit1("Constant", {}, {{"val", double(value)}, {"shape", dims}}, node.output(0));
    ctx.set_data_type(node.output(0), type);
    return;
  }
  ctx.add_constant(
      node.output(0), shape, std::vector<float>(n, value),
      type == ::onnx::TensorProto::FLOAT ? std::vector<int64_t>{} : std::vector<int64_t>(n, int64_t(value)), type);
}

void import_shape(ImportContext& ctx, const NodeView& node) {
  const Shape& s = ctx.shape(node.input(0));
  const int64_t rank = int64_t(s.size());
  int64_t start = node.get_int("start", 0), end = node.get_int("end", rank);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  if (ctx.shapes_at_run_time() && !ctx.has_values(node.input(0))) {  // a sub-graph's shapes change as it runs
    ctx.emit1("Shape", {node.input(0)}, {{"start", start}, {"end", end == rank ? int64_t(0) : end}},
              node.output(0));
    ctx.set_data_type(node.output(0), ::onnx::TensorProto::INT64);
    return;
  }
  std::vector<int64_t> dims(s.begin() + start, s.begin() + end);
  add_int_constant(ctx, node.output(0), {int64_t(dims.size())}, dims);
  SymValues sym;  // a data-sized axis's length is known only at run time
  for (int64_t d = start; d < end; ++d) sym.push_back(ctx.dim_symbol(node.input(0), d));
  ctx.set_symbols(node.output(0), sym);
}

void import_size(ImportContext& ctx, const NodeView& node) {
  add_int_constant(ctx, node.output(0), {}, {shape_size(ctx.shape(node.input(0)))});
  ctx.set_symbols(node.output(0), {ctx.size_symbol(node.input(0))});
}

void import_range(ImportContext& ctx, const NodeView& node) {
  bool known = true;  // else computed from the data or from run-time sizes: ONNXRange reads them when it runs
  for (size_t i = 0; i < 3; ++i) known = known && ctx.has_values(node.input(i)) && !ctx.symbols(node.input(i));
  if (!known) {
    ctx.emit1("ONNXRange",
              {run_time_values(ctx, node.input(0)), run_time_values(ctx, node.input(1)),
               run_time_values(ctx, node.input(2))},
              {}, node.output(0));
    ctx.set_data_type(node.output(0), ctx.data_type(node.input(0)));
    return;
  }
  const double start = ctx.const_values(node.input(0)).at(0), limit = ctx.const_values(node.input(1)).at(0);
  const double delta = ctx.const_values(node.input(2)).at(0);
  NN_CHECK(delta != 0) << "Range delta is 0";
  const int64_t n = std::max<int64_t>(0, int64_t(std::ceil((limit - start) / delta)));
  std::vector<float> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) values[size_t(i)] = float(start + double(i) * delta);
  ctx.add_constant(node.output(0), {n}, values, {}, ctx.data_type(node.input(0)));
}

// Window generators: a constant of `size` samples (periodic: the denominator is size, else size - 1).
void window(ImportContext& ctx, const NodeView& node, const std::vector<double>& cosines) {
  const std::vector<int64_t> size = ctx.const_ints(node.input(0));
  NN_CHECK(size.size() == 1 && size[0] >= 0) << "size must be one non-negative value";
  const int64_t n = size[0];
  const double denom = node.get_int("periodic", 1) != 0 ? double(n) : double(n - 1);
  std::vector<float> v(static_cast<size_t>(n), 0.0f);
  const double pi = std::acos(-1.0);
  for (int64_t i = 0; i < n; ++i) {
    double w = 0;
    for (size_t k = 0; k < cosines.size(); ++k)
      w += cosines[k] * (denom > 0 ? std::cos(2.0 * pi * double(k) * double(i) / denom) : 1.0);
    v[size_t(i)] = float(w);
  }
  ctx.add_constant(node.output(0), {n}, v, {},
                   int32_t(node.get_int("output_datatype", ::onnx::TensorProto::FLOAT)));
}

}  // namespace

void add_shape_rules(std::vector<OpRule>& rules) {
  rules.push_back({"Constant", 1, 17, import_constant});
  rules.push_back({"ConstantOfShape", 9, 17, import_constant_of_shape});
  rules.push_back({"Shape", 1, 17, import_shape});
  rules.push_back({"Size", 1, 17, import_size});
  rules.push_back({"Range", 11, 17, import_range});
  rules.push_back({"HannWindow", 17, 17, [](ImportContext& c, const NodeView& n) { window(c, n, {0.5, -0.5}); }});
  rules.push_back({"HammingWindow", 17, 17, [](ImportContext& c, const NodeView& n) {
                     window(c, n, {25.0 / 46.0, -(1.0 - 25.0 / 46.0)});
                   }});
  rules.push_back({"BlackmanWindow", 17, 17, [](ImportContext& c, const NodeView& n) {
                     window(c, n, {0.42, -0.5, 0.08});
                   }});
}

}  // namespace nn::formats::onnx
