// ONNX matrix, softmax and reduction operators: Gemm, MatMul, Einsum, Det, Softmax, Reduce*, ArgMax/ArgMin,
// CumSum.
#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {

namespace {

std::string transpose2d(ImportContext& ctx, const std::string& x) {
  return ctx.emit1("Transpose", {x}, {{"axes", std::vector<int64_t>{1, 0}}});
}

void import_gemm(ImportContext& ctx, const NodeView& node) {
  std::string a = node.input(0), b = node.input(1);
  const std::string c = node.input(2);
  NN_CHECK(ctx.rank(a) == 2 && ctx.rank(b) == 2)
      << "Gemm needs 2-D A and B, got " << to_string(ctx.shape(a)) << " and " << to_string(ctx.shape(b));
  if (node.get_int("transA", 0)) a = transpose2d(ctx, a);
  if (node.get_int("transB", 0)) b = transpose2d(ctx, b);  // folded when B is an initializer
  const double alpha = node.get_float("alpha", 1.0f), beta = node.get_float("beta", 1.0f);
  if (alpha != 1.0) b = ctx.emit1("MulScalar", {b}, {{"val", alpha}});
  const int64_t n = ctx.shape(b)[1];
  const int64_t m = ctx.shape(a)[0];
  std::vector<std::string> inputs{a, b};
  std::string bias;
  if (!c.empty()) {
    bias = beta == 1.0 ? c : ctx.emit1("MulScalar", {c}, {{"val", beta}});
    const Shape cs = ctx.shape(bias);
    if (shape_size(cs) == n && (cs.size() == 1 || cs.size() == 2)) {
      inputs.push_back(reshape_to(ctx, bias, {n}));
      bias.clear();
    }
  }
  const std::string y =
      ctx.emit1("Affine", inputs, {{"base_axis", int64_t(1)}}, bias.empty() ? node.output(0) : "");
  if (!bias.empty()) {
    ctx.emit1("Add2", {y, broadcast_to(ctx, bias, {m, n})}, {}, node.output(0));
  }
}

void import_matmul(ImportContext& ctx, const NodeView& node) {
  std::string a = node.input(0), b = node.input(1);
  Shape as = ctx.shape(a), bs = ctx.shape(b);
  // (..., M, K) x (K, N): Affine over the last axis, no broadcast of B (the graph keeps its form at any batch).
  if (as.size() >= 2 && bs.size() == 2 && as.back() == bs[0]) {
    ctx.emit1("Affine", {a, b}, {{"base_axis", int64_t(as.size()) - 1}}, node.output(0));
    return;
  }
  const bool a_vec = as.size() == 1, b_vec = bs.size() == 1;
  if (a_vec) as = {1, as[0]};
  if (b_vec) bs = {bs[0], 1};
  Shape batch_a(as.begin(), as.end() - 2), batch_b(bs.begin(), bs.end() - 2);
  const Shape batch = broadcast_shapes(batch_a, batch_b);
  Shape full_a = batch, full_b = batch;
  full_a.insert(full_a.end(), as.end() - 2, as.end());
  full_b.insert(full_b.end(), bs.end() - 2, bs.end());
  const int64_t nb = shape_size(batch);
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  a = broadcast_to(ctx, reshape_to(ctx, a, as), full_a);
  b = broadcast_to(ctx, reshape_to(ctx, b, bs), full_b);
  a = reshape_to(ctx, a, {nb, m, k});
  b = reshape_to(ctx, b, {nb, k, n});
  Shape out = batch;
  if (!a_vec) out.push_back(m);
  if (!b_vec) out.push_back(n);
  const std::string y = ctx.emit1("BatchMatmul", {a, b}, {{"transpose_a", false}, {"transpose_b", false}});
  reshape_to(ctx, y, out, node.output(0));
}

void softmax(ImportContext& ctx, const NodeView& node, const char* type) {
  const std::string x = node.input(0);
  const Shape xs = ctx.shape(x);
  const int64_t rank = int64_t(xs.size());
  if (ctx.opset() >= 13) {
    const int64_t axis = normalize_axis(node.get_int("axis", -1), rank);
    ctx.emit1(type, {x}, {{"axis", axis}}, node.output(0));
    return;
  }
  // Before opset 13: the input is coerced to 2-D [prod(:axis), prod(axis:)].
  const int64_t axis = rank == 0 ? 0 : normalize_axis(node.get_int("axis", 1), rank);
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i) (i < axis ? outer : inner) *= xs[size_t(i)];
  const std::string flat = reshape_to(ctx, x, {outer, inner});
  const std::string y = ctx.emit1(type, {flat}, {{"axis", int64_t(1)}});
  reshape_to(ctx, y, xs, node.output(0));
}

std::vector<int64_t> reduce_axes(ImportContext& ctx, const NodeView& node, bool axes_input, bool* noop) {
  const int64_t rank = ctx.rank(node.input(0));
  std::vector<int64_t> axes = axes_input ? ints_input_or(ctx, node, 1, {}) : node.get_ints("axes");
  *noop = axes.empty() && node.get_int("noop_with_empty_axes", 0) != 0;
  if (axes.empty())
    for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
  for (auto& a : axes) a = normalize_axis(a, rank, "axis");
  return axes;
}

// pre: elementwise before the reduction ("" none); post: after it.
void reduce(ImportContext& ctx, const NodeView& node, const char* type, const char* pre, double pre_val,
            const char* post, double post_val, bool axes_input) {
  bool noop = false;
  const std::vector<int64_t> axes = reduce_axes(ctx, node, axes_input, &noop);
  std::string x = node.input(0);
  if (noop) {
    ctx.emit1("Identity", {x}, {}, node.output(0));
    return;
  }
  if (*pre) x = ctx.emit1(pre, {x}, std::string(pre) == "PowScalar" ? Attrs{{"val", pre_val}} : Attrs{});
  const bool keep = node.get_int("keepdims", 1) != 0;
  const std::string y = ctx.emit1(type, {x}, {{"axes", axes}, {"keep_dims", keep}}, *post ? "" : node.output(0));
  if (*post)
    ctx.emit1(post, {y}, std::string(post) == "PowScalar" ? Attrs{{"val", post_val}} : Attrs{}, node.output(0));
}

void arg_reduce(ImportContext& ctx, const NodeView& node, const char* type) {
  std::string x = node.input(0);
  const int64_t rank = ctx.rank(x);
  const int64_t axis = normalize_axis(node.get_int("axis", 0), rank);
  const bool keep = node.get_int("keepdims", 1) != 0;
  const bool last = node.get_int("select_last_index", 0) != 0;
  if (last) x = ctx.emit1("Flip", {x}, {{"axes", std::vector<int64_t>{axis}}});
  const Attrs attrs{{"axes", std::vector<int64_t>{axis}}, {"keep_dims", keep}, {"only_index", true}};
  if (!last) {
    ctx.emit1(type, {x}, attrs, node.output(0));
  } else {
    const std::string idx = ctx.emit1(type, {x}, attrs);
    ctx.emit1("RSubScalar", {idx}, {{"val", double(ctx.shape(node.input(0))[size_t(axis)] - 1)}}, node.output(0));
  }
  ctx.set_data_type(node.output(0), ::onnx::TensorProto::INT64);
}

void import_cumsum(ImportContext& ctx, const NodeView& node) {
  const int64_t axis = normalize_axis(ctx.const_ints(node.input(1)).at(0), ctx.rank(node.input(0)));
  ctx.emit1("CumSum", {node.input(0)},
            {{"axis", axis},
             {"exclusive", node.get_int("exclusive", 0) != 0},
             {"reverse", node.get_int("reverse", 0) != 0}},
            node.output(0));
}

void import_einsum(ImportContext& ctx, const NodeView& node) {
  std::vector<std::string> inputs;
  for (size_t i = 0; i < node.num_inputs(); ++i) inputs.push_back(node.input(i));
  std::string equation;
  for (char c : node.get_string("equation", ""))
    if (c != ' ') equation += c;
  NN_CHECK(!equation.empty()) << "Einsum needs an equation";
  ctx.emit1("Einsum", inputs, {{"equation", equation}}, node.output(0));
  ctx.set_data_type(node.output(0), ctx.data_type(node.input(0)));
}

// Det of (..., M, M) as BatchDet on (prod(...), M, M).
void import_det(ImportContext& ctx, const NodeView& node) {
  const Shape xs = ctx.shape(node.input(0));
  NN_CHECK(xs.size() >= 2 && xs[xs.size() - 1] == xs[xs.size() - 2])
      << "Det needs square matrices (..., M, M), got " << to_string(xs);
  const int64_t m = xs.back();
  const Shape batch(xs.begin(), xs.end() - 2);
  const std::string x = reshape_to(ctx, node.input(0), {shape_size(batch), m, m});
  reshape_to(ctx, ctx.emit1("BatchDet", {x}), batch, node.output(0));
}

#define NN_REDUCE(onnx_op, type, pre, pre_val, post, post_val, since, until, axes_input) \
  rules.push_back({onnx_op, since, until, [](ImportContext& c, const NodeView& n) {      \
                     reduce(c, n, type, pre, pre_val, post, post_val, axes_input);       \
                   }})

}  // namespace

void add_math_rules(std::vector<OpRule>& rules) {
  rules.push_back({"Gemm", 1, 17, import_gemm});
  rules.push_back({"MatMul", 1, 17, import_matmul});
  rules.push_back({"Softmax", 1, 17, [](ImportContext& c, const NodeView& n) { softmax(c, n, "Softmax"); }});
  rules.push_back({"LogSoftmax", 1, 17, [](ImportContext& c, const NodeView& n) { softmax(c, n, "LogSoftmax"); }});
  NN_REDUCE("ReduceSum", "Sum", "", 0, "", 0, 1, 12, false);
  NN_REDUCE("ReduceSum", "Sum", "", 0, "", 0, 13, 17, true);
  NN_REDUCE("ReduceMean", "Mean", "", 0, "", 0, 1, 17, false);
  NN_REDUCE("ReduceMax", "Max", "", 0, "", 0, 1, 17, false);
  NN_REDUCE("ReduceMin", "Min", "", 0, "", 0, 1, 17, false);
  NN_REDUCE("ReduceProd", "Prod", "", 0, "", 0, 1, 17, false);
  NN_REDUCE("ReduceSumSquare", "Sum", "PowScalar", 2.0, "", 0, 1, 17, false);
  NN_REDUCE("ReduceL1", "Sum", "Abs", 0, "", 0, 1, 17, false);
  NN_REDUCE("ReduceL2", "Sum", "PowScalar", 2.0, "PowScalar", 0.5, 1, 17, false);
  NN_REDUCE("ReduceLogSum", "Sum", "", 0, "Log", 0, 1, 17, false);
  NN_REDUCE("ReduceLogSumExp", "Sum", "Exp", 0, "Log", 0, 1, 17, false);
  rules.push_back({"ArgMax", 1, 17, [](ImportContext& c, const NodeView& n) { arg_reduce(c, n, "Max"); }});
  rules.push_back({"ArgMin", 1, 17, [](ImportContext& c, const NodeView& n) { arg_reduce(c, n, "Min"); }});
  rules.push_back({"CumSum", 11, 17, import_cumsum});
  rules.push_back({"Einsum", 12, 17, import_einsum});
  rules.push_back({"Det", 11, 17, import_det});
}

}  // namespace nn::formats::onnx
