// TFLite import rule for TRANSPOSE_CONV: nnabla's Deconvolution (full output) cropped to TFLite's window.
#include <algorithm>

#include "formats/tflite/tflite_graph.hpp"
#include "formats/tflite/tflite_importer.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::tflite_import {
namespace {

using Ints = std::vector<int64_t>;

// Inputs: output shape (int32), OHWI weights, NHWC data, optional bias.
void transpose_conv(Importer& im, const tflite::OperatorT& op) {
  const int w = op.inputs.at(1), x = op.inputs.at(2);
  const int b = op.inputs.size() > 3 ? op.inputs.at(3) : -1;
  const Shape xs = im.shape(x), ws = im.shape(w), ys = im.shape(op.outputs.at(0));
  const auto* o = op.builtin_options.AsTransposeConvOptions();
  NN_CHECK(o) << "options are missing";
  NN_CHECK(xs.size() == 4 && ws.size() == 4 && ys.size() == 4) << "input, filter and output must be rank 4";
  const int64_t cout = ws[0], kh = ws[1], kw = ws[2], cin = ws[3];
  NN_CHECK(cin == xs[3] && cout == ys[3] && xs[0] == ys[0])
      << "filter " << ws << " does not fit input " << xs << " and output " << ys;
  const Ints given = im.constant_ints(op.inputs.at(0));
  NN_CHECK(given.size() == 4 && given[1] == ys[1] && given[2] == ys[2] && given[3] == ys[3])
      << "the output_shape operand does not match the output tensor " << ys;
  const int64_t k[2] = {kh, kw}, s[2] = {o->stride_h, o->stride_w}, in[2] = {xs[1], xs[2]},
                out[2] = {ys[1], ys[2]};
  int64_t full[2], before[2];
  for (int a = 0; a < 2; ++a) {
    NN_CHECK(s[a] > 0 && k[a] > 0 && in[a] > 0) << "strides, kernel and input sizes must be positive";
    full[a] = s[a] * (in[a] - 1) + k[a];
    // nncli computes the whole transposed output: it must stay near the declared one.
    NN_CHECK(full[a] <= 2 * out[a] + k[a])
        << "stride " << s[a] << " over " << in[a] << " gives " << full[a] << " cells for an output of " << out[a];
    const int64_t forward = (out[a] + s[a] - 1) / s[a];  // TFLite pads as the convolution of the output would
    const int64_t total = std::max<int64_t>((forward - 1) * s[a] + k[a] - out[a], 0);
    before[a] = o->padding == tflite::Padding_SAME ? total / 2 : 0;
  }
  std::vector<float> wd = im.constant(w), nw(wd.size());
  for (int64_t oc = 0; oc < cout; ++oc)
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j)
        for (int64_t c = 0; c < cin; ++c)
          nw[size_t(((c * cout + oc) * kh + i) * kw + j)] = wd[size_t(((oc * kh + i) * kw + j) * cin + c)];
  std::string wv = im.param(im.tensor(w).name + "/iohw", {cin, cout, kh, kw}, std::move(nw));
  std::string xn = im.temp(im.var(x) + "/nchw", {xs[0], cin, xs[1], xs[2]});
  im.fn("Transpose", {im.var(x)}, {xn}, {{"axes", Ints{0, 3, 1, 2}}});
  std::string y = im.temp(im.op_name() + "/deconv", {xs[0], cout, full[0], full[1]});
  im.fn("Deconvolution", {xn, wv}, {y},
        {{"base_axis", int64_t(1)},
         {"pad", Ints{0, 0}},
         {"stride", Ints{s[0], s[1]}},
         {"dilation", Ints{1, 1}},
         {"group", int64_t(1)},
         {"channel_last", false},
         {"output_padding", Ints{0, 0}}});
  const int64_t keep[2] = {std::min(out[0], full[0] - before[0]), std::min(out[1], full[1] - before[1])};
  NN_CHECK(keep[0] > 0 && keep[1] > 0) << "the padding leaves no output";
  if (before[0] || before[1] || keep[0] != full[0] || keep[1] != full[1]) {
    std::string c = im.temp(im.op_name() + "/cropped", {xs[0], cout, keep[0], keep[1]});
    im.fn("Slice", {y}, {c},
          {{"start", Ints{before[0], before[1]}},
           {"stop", Ints{before[0] + keep[0], before[1] + keep[1]}},
           {"step", Ints{1, 1}}});
    y = c;
  }
  if (keep[0] < out[0] || keep[1] < out[1]) {  // past the transposed output: zeros (then the bias)
    std::string p = im.temp(im.op_name() + "/padded", {xs[0], cout, out[0], out[1]});
    im.fn("Pad", {y}, {p},
          {{"pad_width", Ints{0, out[0] - keep[0], 0, out[1] - keep[1]}},
           {"mode", std::string("constant")},
           {"constant_value", 0.0}});
    y = p;
  }
  if (b >= 0) {
    std::vector<float> bias = im.constant(b);
    NN_CHECK(int64_t(bias.size()) == cout) << "bias of " << bias.size() << " values for " << cout << " channels";
    std::string bv = im.param(im.tensor(b).name + "/nchw", {1, cout, 1, 1}, std::move(bias));
    std::string z = im.temp(im.op_name() + "/biased", {xs[0], cout, out[0], out[1]});
    im.fn("Add2", {y, bv}, {z});
    y = z;
  }
  std::string yn = im.temp(y + "/nhwc", ys);
  im.fn("Transpose", {y}, {yn}, {{"axes", Ints{0, 2, 3, 1}}});
  im.finish(yn, op.outputs.at(0), o->fused_activation_function);
}

}  // namespace

void add_transpose_conv_rule(std::map<int32_t, Rule>& rules) {
  rules[int32_t(tflite_io::BuiltinOp::TRANSPOSE_CONV)] = transpose_conv;
}

}  // namespace nn::formats::tflite_import
