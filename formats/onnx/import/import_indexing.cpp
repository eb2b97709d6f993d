// ONNX element indexing: GatherElements, ScatterElements/Scatter, GatherND, ScatterND, OneHot, Hardmax, Trilu,
// EyeLike.
#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {
namespace {

// A constant of `shape` holding each element's index along `axis`.
std::string iota_along(ImportContext& ctx, const Shape& shape, size_t axis) {
  const int64_t n = ImportContext::checked_constant_size("index", shape);
  int64_t inner = 1;
  for (size_t i = axis + 1; i < shape.size(); ++i) inner *= shape[i];
  std::vector<float> v(size_t(n), 0.0f);
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = float((i / inner) % shape[axis]);
  return ctx.constant(shape, std::move(v));
}

// Negative indices counted from the end: idx + (idx < 0) * dim (folded for constant indices).
std::string wrap_negative(ImportContext& ctx, const std::string& idx, int64_t dim) {
  const std::string neg = ctx.emit1("LessScalar", {idx}, {{"val", 0.0}});
  return ctx.emit1("Add2", {idx, ctx.emit1("MulScalar", {neg}, {{"val", double(dim)}})});
}

// Each element's index along `d` of indices whose axis `a` has a length known only at run time: an iota of the
// static dims on one side of `a`, broadcast (BroadcastTo) over the indices' run-time shape.
std::string iota_beside_data_axis(ImportContext& ctx, const std::string& indices, size_t d) {
  const Shape is = ctx.shape(indices);
  const size_t a = size_t(ctx.data_axis(indices));
  NN_CHECK_CODE(d != a, ErrorCode::kUnsupported)
      << "indices ('" << indices << "') have a length known only at run time along axis " << a
      << ", which the other indices would have to count";
  const size_t first = d < a ? d : a + 1, last = d < a ? a : is.size();  // the static dims [first, last)
  const Shape part(is.begin() + long(first), is.begin() + long(last));
  return ctx.emit1("BroadcastTo", {indices, iota_along(ctx, part, d - first)}, {{"axis", int64_t(first)}});
}

// nnabla GatherNd/ScatterNd indices (rank, *indices.shape) addressing data element-wise along `axis`. Negative
// indices wrap around the data's dim; on a dim whose length is known only at run time they are taken as given.
std::string element_indices(ImportContext& ctx, const std::string& indices, const std::string& data, size_t axis) {
  const Shape is = ctx.shape(indices);
  const Shape data_shape = ctx.shape(data);
  NN_CHECK(is.size() == data_shape.size())
      << "indices " << to_string(is) << " and data " << to_string(data_shape) << " must have the same rank";
  const bool sized = ctx.data_axis(indices) >= 0;
  std::vector<std::string> parts;
  for (size_t d = 0; d < is.size(); ++d) {
    if (d == axis)
      parts.push_back(int64_t(d) == ctx.data_axis(data) ? indices : wrap_negative(ctx, indices, data_shape[d]));
    else
      parts.push_back(sized ? iota_beside_data_axis(ctx, indices, d) : iota_along(ctx, is, d));
  }
  return ctx.emit1("Stack", parts, {{"axis", int64_t(0)}});
}

void import_gather_elements(ImportContext& ctx, const NodeView& node) {
  const Shape xs = ctx.shape(node.input(0));
  const size_t axis = size_t(normalize_axis(node.get_int("axis", 0), int64_t(xs.size())));
  const std::string idx = element_indices(ctx, node.input(1), node.input(0), axis);
  ctx.emit1("GatherNd", {node.input(0), idx}, {}, node.output(0));
}

std::string reduction(const NodeView& node) {
  const std::string r = node.get_string("reduction", "none");
  NN_CHECK_CODE(r == "none" || r == "add", ErrorCode::kUnsupported) << "reduction '" << r << "' is not supported";
  return r;
}

void import_scatter_elements(ImportContext& ctx, const NodeView& node) {
  const Shape xs = ctx.shape(node.input(0));
  const size_t axis = size_t(normalize_axis(node.get_int("axis", 0), int64_t(xs.size())));
  const bool add = reduction(node) == "add";
  const std::string idx = element_indices(ctx, node.input(1), node.input(0), axis);
  // The output takes the data's shape (input out), which may follow the data at run time.
  const bool sized = ctx.data_axis(node.input(0)) >= 0;
  ctx.emit1("ScatterNd", {node.input(2), idx, node.input(0)},
            {{"shape", sized ? std::vector<int64_t>{} : std::vector<int64_t>(xs)}, {"add", add}}, node.output(0));
}

// ONNX (..., M) index tuples as nnabla's (M', ...) with the batch_dims leading axes prepended as iotas and
// negative indices wrapped.
std::string nd_indices(ImportContext& ctx, const std::string& indices, const Shape& data_shape,
                       int64_t batch_dims) {
  const Shape is = ctx.shape(indices);
  NN_CHECK(!is.empty()) << "indices must have rank >= 1";
  const int64_t m = is.back();
  NN_CHECK(batch_dims >= 0 && batch_dims + m <= int64_t(data_shape.size()) && batch_dims < int64_t(is.size()))
      << "indices " << to_string(is) << " do not fit data " << to_string(data_shape) << " with batch_dims "
      << batch_dims;
  std::vector<int64_t> perm{int64_t(is.size()) - 1};
  for (int64_t i = 0; i + 1 < int64_t(is.size()); ++i) perm.push_back(i);
  std::string t = ctx.emit1("Transpose", {indices}, {{"axes", perm}});
  const Shape inner(is.begin(), is.end() - 1);
  Shape per_dim(is.size(), 1);
  per_dim[0] = m;
  std::vector<float> dims(static_cast<size_t>(m), 0.0f);
  for (int64_t k = 0; k < m; ++k) dims[size_t(k)] = float(data_shape[size_t(batch_dims + k)]);
  const std::string neg = ctx.emit1("LessScalar", {t}, {{"val", 0.0}});
  // (m, 1, ...) broadcast by Mul2: no constant of the indices' size, which may follow the data (NonZero's).
  t = ctx.emit1("Add2", {t, ctx.emit1("Mul2", {neg, ctx.constant(per_dim, dims)})});
  if (batch_dims == 0) return t;
  std::vector<std::string> parts;
  for (int64_t b = 0; b < batch_dims; ++b) {
    Shape one{1};
    one.insert(one.end(), inner.begin(), inner.end());
    parts.push_back(iota_along(ctx, one, size_t(b) + 1));
  }
  parts.push_back(t);
  return ctx.emit1("Concatenate", parts, {{"axis", int64_t(0)}});
}

void import_gather_nd(ImportContext& ctx, const NodeView& node) {
  const Shape xs = ctx.shape(node.input(0));
  const std::string idx = nd_indices(ctx, node.input(1), xs, node.get_int("batch_dims", 0));
  ctx.emit1("GatherNd", {node.input(0), idx}, {}, node.output(0));
}

void import_scatter_nd(ImportContext& ctx, const NodeView& node) {
  const Shape xs = ctx.shape(node.input(0));
  const bool add = reduction(node) == "add";
  const std::string idx = nd_indices(ctx, node.input(1), xs, 0);
  ctx.emit1("ScatterNd", {node.input(2), idx, node.input(0)}, {{"shape", std::vector<int64_t>(xs)}, {"add", add}},
            node.output(0));
}

// 1.0 where `index` (broadcast along `axis`) equals the position on `axis` of `shape`, else 0.0.
std::string one_hot_mask(ImportContext& ctx, const std::string& index, const Shape& shape, size_t axis) {
  return ctx.emit1("Equal", {broadcast_to(ctx, index, shape), iota_along(ctx, shape, axis)});
}

void import_one_hot(ImportContext& ctx, const NodeView& node) {
  const Shape is = ctx.shape(node.input(0));
  const std::vector<float> depth_v = ctx.const_values(node.input(1));
  NN_CHECK(depth_v.size() == 1 && depth_v[0] >= 1) << "depth must be one positive value";
  const int64_t depth = int64_t(depth_v[0]);
  const std::vector<float> values = ctx.const_values(node.input(2));
  NN_CHECK(values.size() == 2) << "values must hold [off_value, on_value], got " << values.size() << " values";
  const int64_t rank = int64_t(is.size()) + 1;
  const size_t axis = size_t(normalize_axis(node.get_int("axis", -1), rank));
  Shape out = is, kept = is;
  out.insert(out.begin() + long(axis), depth);
  kept.insert(kept.begin() + long(axis), 1);
  const std::string idx = reshape_to(ctx, wrap_negative(ctx, node.input(0), depth), kept);
  std::string y = one_hot_mask(ctx, idx, out, axis);
  if (values[1] - values[0] != 1.0f) y = ctx.emit1("MulScalar", {y}, {{"val", double(values[1] - values[0])}});
  ctx.emit1("AddScalar", {y}, {{"val", double(values[0])}}, node.output(0));
  ctx.set_data_type(node.output(0), ctx.data_type(node.input(2)));
}

void import_hardmax(ImportContext& ctx, const NodeView& node) {
  const std::string x = node.input(0);
  const Shape xs = ctx.shape(x);
  const int64_t rank = int64_t(xs.size());
  std::string flat = x;
  size_t axis = 0;
  if (ctx.opset() >= 13) {
    axis = size_t(normalize_axis(node.get_int("axis", -1), rank));
  } else {  // coerced to 2-D [prod(:axis), prod(axis:)]
    const int64_t a = normalize_axis(node.get_int("axis", 1), rank);
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < rank; ++i) (i < a ? outer : inner) *= xs[size_t(i)];
    flat = reshape_to(ctx, x, {outer, inner});
    axis = 1;
  }
  const Shape fs = ctx.shape(flat);
  const std::string idx = ctx.emit1(
      "Max", {flat}, {{"axes", std::vector<int64_t>{int64_t(axis)}}, {"keep_dims", true}, {"only_index", true}});
  const std::string y = one_hot_mask(ctx, idx, fs, axis);
  reshape_to(ctx, y, xs, node.output(0));
}

void import_trilu(ImportContext& ctx, const NodeView& node) {
  NN_CHECK(ctx.rank(node.input(0)) >= 2) << "Trilu needs an input of rank >= 2";
  const std::vector<int64_t> k = ints_input_or(ctx, node, 1, {0});
  NN_CHECK(k.size() == 1) << "k must hold one value";
  ctx.emit1("Trilu", {node.input(0)}, {{"k", k[0]}, {"upper", node.get_int("upper", 1) != 0}}, node.output(0));
  ctx.set_data_type(node.output(0), ctx.data_type(node.input(0)));
}

void import_eye_like(ImportContext& ctx, const NodeView& node) {
  NN_CHECK(ctx.rank(node.input(0)) == 2)
      << "EyeLike needs a 2-D input, got " << to_string(ctx.shape(node.input(0)));
  ctx.emit1("EyeLike", {node.input(0)}, {{"k", node.get_int("k", 0)}}, node.output(0));
  ctx.set_data_type(node.output(0), int32_t(node.get_int("dtype", ctx.data_type(node.input(0)))));
}

}  // namespace

void add_indexing_rules(std::vector<OpRule>& rules) {
  rules.push_back({"GatherElements", 11, 17, import_gather_elements});
  rules.push_back({"ScatterElements", 11, 17, import_scatter_elements});
  rules.push_back({"Scatter", 9, 10, import_scatter_elements});
  rules.push_back({"GatherND", 11, 17, import_gather_nd});
  rules.push_back({"ScatterND", 11, 17, import_scatter_nd});
  rules.push_back({"OneHot", 9, 17, import_one_hot});
  rules.push_back({"Hardmax", 1, 17, import_hardmax});
  rules.push_back({"Trilu", 14, 17, import_trilu});
  rules.push_back({"EyeLike", 9, 17, import_eye_like});
}

}  // namespace nn::formats::onnx
