// ONNX pooling operators: MaxPool, AveragePool (auto_pad, asymmetric pads, ceil_mode), global pooling.
#include <limits>

#include "formats/onnx/import/op_rules.hpp"
#include "formats/onnx/import/spatial_pads.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {

namespace {

Attrs pool_attrs(const std::vector<int64_t>& kernel, const std::vector<int64_t>& strides,
                 const std::vector<int64_t>& pad) {
  return {{"kernel", kernel}, {"stride", strides}, {"ignore_border", true}, {"pad", pad}, {"channel_last", false}};
}

std::string pad_input(ImportContext& ctx, const std::string& x, const SpatialPads& p, double value) {
  return ctx.emit1("Pad", {x},
                   {{"pad_width", p.pad_width()}, {"mode", std::string("constant")}, {"constant_value", value}});
}

// Whether max pooling over `in` with `pads` (ceil_mode's end extension included) equals nnabla's MaxPooling with
// ignore_border=false and the symmetric pads it was extended from: the same output sizes ((in + pad - 1) / stride
// + 1 upstream), and every window holding an input value (pad < kernel), as partial windows at the end take the
// maxima of what they hold, which -inf padding gives too. Pooling then reads the convolution's output as it is,
// with no padded copy (GoogLeNet b1: three Pads before ceil_mode pools took 12.9 ms of a 48.7 ms run).
bool ceil_as_partial_windows(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                             const std::vector<int64_t>& strides, const SpatialPads& symmetric,
                             const SpatialPads& pads) {
  if (!symmetric.symmetric()) return false;
  for (size_t i = 0; i < in.size(); ++i) {
    const int64_t pad = symmetric.begin[i];
    const int64_t out = (in[i] + pads.begin[i] + pads.end[i] - kernel[i]) / strides[i] + 1;
    if (pad >= kernel[i] || (in[i] + pad - 1) / strides[i] + 1 != out) return false;
  }
  return true;
}

void pool(ImportContext& ctx, const NodeView& node, bool max) {
  NN_CHECK_CODE(node.output(1).empty(), ErrorCode::kUnsupported) << "MaxPool's Indices output is not supported";
  const std::string x = node.input(0);
  const Shape xs = ctx.shape(x);
  const std::vector<int64_t> kernel = node.get_ints("kernel_shape");
  const size_t k = kernel.size();
  NN_CHECK(k >= 1 && xs.size() == k + 2)
      << "kernel_shape " << to_string(kernel) << " does not fit input " << to_string(xs);
  const std::vector<int64_t> strides = node.get_ints("strides", std::vector<int64_t>(k, 1));
  for (auto d : node.get_ints("dilations", std::vector<int64_t>(k, 1)))
    NN_CHECK_CODE(d == 1, ErrorCode::kUnsupported) << "pooling dilations other than 1 are not supported";
  const std::vector<int64_t> in(xs.begin() + 2, xs.end());
  SpatialPads pads = resolve_pads(node, in, kernel, strides);
  const SpatialPads symmetric_pads = pads;  // before ceil_mode's extension
  if (node.get_int("ceil_mode", 0) != 0) {  // grow the end padding so that floor gives the ceil size
    for (size_t i = 0; i < k; ++i) {
      const int64_t span = in[i] + pads.begin[i] + pads.end[i] - kernel[i];
      int64_t out = (span + strides[i] - 1) / strides[i] + 1;
      if ((out - 1) * strides[i] >= in[i] + pads.begin[i]) --out;
      pads.end[i] +=
          std::max<int64_t>(0, (out - 1) * strides[i] + kernel[i] - (in[i] + pads.begin[i] + pads.end[i]));
    }
  }
  const bool include_pad = node.get_int("count_include_pad", 0) != 0;
  if (pads.symmetric()) {
    Attrs attrs = pool_attrs(kernel, strides, pads.begin);
    if (!max) attrs.set("including_pad", include_pad);
    ctx.emit1(max ? "MaxPooling" : "AveragePooling", {x}, attrs, node.output(0));
    return;
  }
  if (max && ceil_as_partial_windows(in, kernel, strides, symmetric_pads, pads)) {
    Attrs attrs = pool_attrs(kernel, strides, symmetric_pads.begin);
    attrs.set("ignore_border", false);
    ctx.emit1("MaxPooling", {x}, attrs, node.output(0));
    return;
  }
  const Attrs unpadded = pool_attrs(kernel, strides, std::vector<int64_t>(k, 0));
  if (max) {
    const std::string padded = pad_input(ctx, x, pads, -std::numeric_limits<double>::infinity());
    ctx.emit1("MaxPooling", {padded}, unpadded, node.output(0));
    return;
  }
  const std::string sum = ctx.emit1("SumPooling", {pad_input(ctx, x, pads, 0.0)}, unpadded);
  Shape ones_shape(xs.size(), 1);
  for (size_t i = 0; i < k; ++i) ones_shape[2 + i] = in[i];
  std::string count_source = filled_constant(ctx, ones_shape, 1.0f);
  // count_include_pad counts the explicit pads (not the ceil_mode extension beyond them).
  const std::string counted =
      include_pad ? pad_input(ctx, count_source, pads, 1.0) : pad_input(ctx, count_source, pads, 0.0);
  const std::string count = ctx.emit1("SumPooling", {counted}, unpadded);
  ctx.emit1("Div2", {sum, count}, {}, node.output(0));
}

void global_pool(ImportContext& ctx, const NodeView& node, bool max) {
  const Shape xs = ctx.shape(node.input(0));
  if (!max && xs.size() == 4) {
    ctx.emit1("GlobalAveragePooling", {node.input(0)}, {}, node.output(0));
    return;
  }
  std::vector<int64_t> axes;
  for (int64_t a = 2; a < int64_t(xs.size()); ++a) axes.push_back(a);
  ctx.emit1(max ? "Max" : "Mean", {node.input(0)}, {{"axes", axes}, {"keep_dims", true}}, node.output(0));
}

}  // namespace

void add_pooling_rules(std::vector<OpRule>& rules) {
  rules.push_back({"MaxPool", 1, 17, [](ImportContext& c, const NodeView& n) { pool(c, n, true); }});
  rules.push_back({"AveragePool", 1, 17, [](ImportContext& c, const NodeView& n) { pool(c, n, false); }});
  rules.push_back(
      {"GlobalAveragePool", 1, 17, [](ImportContext& c, const NodeView& n) { global_pool(c, n, false); }});
  rules.push_back({"GlobalMaxPool", 1, 17, [](ImportContext& c, const NodeView& n) { global_pool(c, n, true); }});
}

}  // namespace nn::formats::onnx
