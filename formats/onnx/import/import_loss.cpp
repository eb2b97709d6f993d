// ONNX NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss composed from a class mask (Equal with an iota).
#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {
namespace {

std::vector<int64_t> all_axes(int64_t rank) {
  std::vector<int64_t> a;
  for (int64_t i = 0; i < rank; ++i) a.push_back(i);
  return a;
}

// loss = -x[n, t[n, ...], ...] * w[t] (0 where t == ignore_index), reduced as `reduction` says.
void nll(ImportContext& ctx, const NodeView& node, const std::string& x, const std::string& output) {
  const Shape xs = ctx.shape(x);
  const std::string target = node.input(1);
  const Shape ts = ctx.shape(target);
  NN_CHECK(xs.size() >= 2 && ts.size() + 1 == xs.size() && ts[0] == xs[0])
      << "input " << to_string(xs) << " and target " << to_string(ts) << " must be (N, C, d...) and (N, d...)";
  const int64_t C = xs[1];
  const std::string reduction = node.get_string("reduction", "mean");
  NN_CHECK(reduction == "none" || reduction == "sum" || reduction == "mean")
      << "reduction '" << reduction << "' is not none, sum or mean";
  Shape kept = ts;
  kept.insert(kept.begin() + 1, 1);
  const std::string t = reshape_to(ctx, target, kept);
  // class mask (N, C, d...), with the class weights and the ignored positions folded in.
  std::vector<float> iota(size_t(shape_size(xs)));
  int64_t inner = 1;
  for (size_t i = 2; i < xs.size(); ++i) inner *= xs[i];
  for (size_t i = 0; i < iota.size(); ++i) iota[i] = float((int64_t(i) / inner) % C);
  std::string w = ctx.emit1("Equal", {broadcast_to(ctx, t, xs), ctx.constant(xs, iota)});
  if (node.has("ignore_index")) {
    const std::string valid = ctx.emit1("NotEqualScalar", {t}, {{"val", double(node.get_int("ignore_index", 0))}});
    w = ctx.emit1("Mul2", {w, broadcast_to(ctx, valid, xs)});
  }
  if (!node.input(2).empty()) {
    Shape ws(xs.size(), 1);
    ws[1] = C;
    w = ctx.emit1("Mul2", {w, broadcast_to(ctx, reshape_to(ctx, node.input(2), ws), xs)});
  }
  const std::string picked = ctx.emit1("Mul2", {x, w});
  const Attrs over_classes{{"axes", std::vector<int64_t>{1}}, {"keep_dims", false}};
  if (reduction == "none") {
    ctx.emit1("MulScalar", {ctx.emit1("Sum", {picked}, over_classes)}, {{"val", -1.0}}, output);
    return;
  }
  const Attrs over_all{{"axes", all_axes(int64_t(xs.size()))}, {"keep_dims", false}};
  const std::string total = ctx.emit1("Sum", {picked}, over_all);
  if (reduction == "sum") {
    ctx.emit1("MulScalar", {total}, {{"val", -1.0}}, output);
    return;
  }
  const std::string weight_sum = ctx.emit1("Sum", {w}, over_all);
  ctx.emit1("Div2", {ctx.emit1("MulScalar", {total}, {{"val", -1.0}}), weight_sum}, {}, output);
}

void import_nll(ImportContext& ctx, const NodeView& node) { nll(ctx, node, node.input(0), node.output(0)); }

void import_softmax_ce(ImportContext& ctx, const NodeView& node) {
  NN_CHECK(ctx.rank(node.input(0)) >= 2) << "scores must be (N, C, d...)";
  const std::string log_prob = ctx.emit1("LogSoftmax", {node.input(0)}, {{"axis", int64_t(1)}}, node.output(1));
  nll(ctx, node, log_prob, node.output(0));
}

}  // namespace

void add_loss_rules(std::vector<OpRule>& rules) {
  rules.push_back({"NegativeLogLikelihoodLoss", 12, 17, import_nll});
  rules.push_back({"SoftmaxCrossEntropyLoss", 12, 17, import_softmax_ce});
}

}  // namespace nn::formats::onnx
