// ONNX LayerNormalization (nnabla LayerNormalization, or composed when Mean/InvStdDev are read) and
// MeanVarianceNormalization.
#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {
namespace {

struct Moments {
  std::string centred;  // x - mean, x's shape
  std::string mean;     // reduced shape (kept dims)
  std::string inv_std;  // 1 / sqrt(var + eps), reduced shape
};

Moments moments(ImportContext& ctx, const std::string& x, const std::vector<int64_t>& axes, double eps) {
  const Shape xs = ctx.shape(x);
  const Attrs reduce{{"axes", axes}, {"keep_dims", true}};
  Moments m;
  m.mean = ctx.emit1("Mean", {x}, reduce);
  m.centred = ctx.emit1("Sub2", {x, broadcast_to(ctx, m.mean, xs)});
  const std::string var = ctx.emit1("Mean", {ctx.emit1("Mul2", {m.centred, m.centred})}, reduce);
  m.inv_std = ctx.emit1("PowScalar", {ctx.emit1("AddScalar", {var}, {{"val", eps}})}, {{"val", -0.5}});
  return m;
}

void import_layer_norm(ImportContext& ctx, const NodeView& node) {
  const std::string x = node.input(0);
  const Shape xs = ctx.shape(x);
  const int64_t rank = int64_t(xs.size());
  const int64_t axis = normalize_axis(node.get_int("axis", -1), rank);
  const double eps = node.get_float("epsilon", 1e-5f);
  Shape param(xs);
  std::vector<int64_t> batch_axes, norm_axes;
  for (int64_t i = 0; i < rank; ++i) {
    if (i < axis)
      param[size_t(i)] = 1, batch_axes.push_back(i);
    else
      norm_axes.push_back(i);
  }
  const std::string scale = broadcast_to(ctx, node.input(1), param);
  const bool has_bias = !node.input(2).empty();
  const bool stats = !node.output(1).empty() || !node.output(2).empty();
  if (!stats && axis > 0) {
    const std::string bias =
        has_bias ? broadcast_to(ctx, node.input(2), param) : filled_constant(ctx, param, 0.0f);
    ctx.emit1("LayerNormalization", {x, bias, scale},
              {{"batch_axis", batch_axes}, {"eps", eps}, {"no_scale", false}, {"no_bias", false}}, node.output(0));
    return;
  }
  const Moments m = moments(ctx, x, norm_axes, eps);
  std::string y = ctx.emit1("Mul2", {m.centred, broadcast_to(ctx, m.inv_std, xs)});
  y = ctx.emit1("Mul2", {y, broadcast_to(ctx, scale, xs)}, {}, has_bias ? "" : node.output(0));
  if (has_bias) ctx.emit1("Add2", {y, broadcast_to(ctx, node.input(2), xs)}, {}, node.output(0));
  if (!node.output(1).empty()) ctx.emit1("Identity", {m.mean}, {}, node.output(1));
  if (!node.output(2).empty()) ctx.emit1("Identity", {m.inv_std}, {}, node.output(2));
}

void import_mvn(ImportContext& ctx, const NodeView& node) {
  const std::string x = node.input(0);
  std::vector<int64_t> axes = node.get_ints("axes", {0, 2, 3});
  for (auto& a : axes) a = normalize_axis(a, ctx.rank(x));
  // ONNX's definition: (x - mean) / (sqrt(var) + 1e-9).
  const Shape xs = ctx.shape(x);
  const Attrs reduce{{"axes", axes}, {"keep_dims", true}};
  const std::string mean = ctx.emit1("Mean", {x}, reduce);
  const std::string centred = ctx.emit1("Sub2", {x, broadcast_to(ctx, mean, xs)});
  const std::string var = ctx.emit1("Mean", {ctx.emit1("Mul2", {centred, centred})}, reduce);
  const std::string std_eps =
      ctx.emit1("AddScalar", {ctx.emit1("PowScalar", {var}, {{"val", 0.5}})}, {{"val", 1e-9}});
  ctx.emit1("Div2", {centred, broadcast_to(ctx, std_eps, xs)}, {}, node.output(0));
}

}  // namespace

void add_layer_norm_rules(std::vector<OpRule>& rules) {
  rules.push_back({"LayerNormalization", 17, 17, import_layer_norm});
  rules.push_back({"MeanVarianceNormalization", 9, 17, import_mvn});
}

}  // namespace nn::formats::onnx
