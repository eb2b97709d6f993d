// TFLite export rule for Deconvolution: TRANSPOSE_CONV (SAME or VALID), then a crop or zero padding where
// nnabla's pad and output_padding give no TFLite padding, then the bias as an ADD.
#include "formats/tflite/tflite_exporter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::tflite_export {
namespace {

using tflite_io::BuiltinOp;

void emit_deconvolution(Exporter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  const std::string& w = f.inputs.at(1);
  const Shape& xs = e.shape(x);
  const Shape& ws = e.shape(w);
  NN_CHECK(!f.attrs.get_bool("channel_last", false)) << "channel_last=true is not supported";
  NN_CHECK(f.attrs.get_int("base_axis", 1) == 1 && xs.size() == 4 && ws.size() == 4)
      << "only 2-D deconvolutions of (N, C, H, W) inputs are supported (input " << xs << ", weight " << ws << ")";
  const int64_t group = f.attrs.get_int("group", 1);
  NN_CHECK_CODE(group == 1, ErrorCode::kUnsupported) << "group " << group << ": TRANSPOSE_CONV has no groups";
  auto pad = f.attrs.get_shape_or("pad", {0, 0});
  auto stride = f.attrs.get_shape_or("stride", {1, 1});
  auto dil = f.attrs.get_shape_or("dilation", {1, 1});
  auto out_pad = f.attrs.get_shape_or("output_padding", {0, 0});
  NN_CHECK(pad.size() == 2 && stride.size() == 2 && dil.size() == 2 && out_pad.size() == 2)
      << "pad/stride/dilation/output_padding must have 2 values";
  NN_CHECK_CODE(dil[0] == 1 && dil[1] == 1, ErrorCode::kUnsupported)
      << "dilation " << dil << ": TRANSPOSE_CONV has no dilation";
  const int64_t cin = ws[0], cout = ws[1], kh = ws[2], kw = ws[3];
  NN_CHECK(cin == xs[1]) << "weight " << ws << " does not match input " << xs;
  const std::string& y = f.outputs.at(0);
  const Shape& ys = e.shape(y);
  const int64_t k[2] = {kh, kw}, in[2] = {xs[2], xs[3]};
  // nnabla: y = full[pad : pad + out], full = stride * (in - 1) + kernel, out = full - 2 pad + output_padding
  // (cells past `full` are zeros). TFLite SAME crops total / 2 before, total = full - out.
  int64_t full[2], out[2];
  bool same = true, valid = true;
  for (int a = 0; a < 2; ++a) {
    full[a] = stride[size_t(a)] * (in[a] - 1) + k[a];
    out[a] = ys[size_t(2 + a)];
    const int64_t total = full[a] - out[a];
    same &= out_pad[size_t(a)] == 0 && pad[size_t(a)] > 0 && total == 2 * pad[size_t(a)] &&
            (out[a] + stride[size_t(a)] - 1) / stride[size_t(a)] == in[a];
    valid &= pad[size_t(a)] == 0 && out_pad[size_t(a)] == 0;
  }
  const bool crop = !same && !valid;  // VALID (the full output), then cropped and padded to nnabla's window
  // OHWI filter: TFLite's output channel o, input channel c at (i, j) is nnabla's w[c][o][i][j].
  const std::vector<float>& wd = e.parameter(w).data;
  std::vector<float> tw(size_t(cout * kh * kw * cin));
  for (int64_t c = 0; c < cin; ++c)
    for (int64_t o = 0; o < cout; ++o)
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < kw; ++j)
          tw[size_t(((o * kh + i) * kw + j) * cin + c)] = wd[size_t(((c * cout + o) * kh + i) * kw + j)];
  const Perm cl = channel_last_perm(4);
  const int xt = e.in_order(x, cl);
  const Shape conv_shape = {xs[0], crop ? full[0] : out[0], crop ? full[1] : out[1], cout};
  std::vector<int32_t> dims(conv_shape.begin(), conv_shape.end());
  const int st = e.g().const_int32(e.fresh(f.name + "/output_shape"), {4}, dims);
  const int wt = e.g().const_float(e.fresh(w), {cout, kh, kw, cin}, tw);
  const bool has_bias = f.inputs.size() > 2 && !f.inputs[2].empty();
  const bool last = !crop && !has_bias;
  int t = last ? e.define(y, cl) : e.g().tensor(e.fresh(y + "/transpose_conv"), conv_shape);
  tflite::TransposeConvOptionsT o;
  o.padding = same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_h = int32_t(stride[0]), o.stride_w = int32_t(stride[1]);
  tflite::BuiltinOptionsUnion opts;
  opts.Set(o);
  e.g().op(BuiltinOp::TRANSPOSE_CONV, {st, wt, xt}, {t}, std::move(opts));
  if (crop) {  // rows [pad, pad + out) of the full output, the part past it zeros
    int64_t keep[2];
    for (int a = 0; a < 2; ++a) keep[a] = std::min(out[a], full[a] - pad[size_t(a)]);
    NN_CHECK(keep[0] > 0 && keep[1] > 0) << "pad " << pad << " leaves no output";
    const Shape cropped = {xs[0], keep[0], keep[1], cout};
    const bool padded = keep[0] < out[0] || keep[1] < out[1];
    const bool done = !padded && !has_bias;
    const int ct = done ? e.define(y, cl) : e.g().tensor(e.fresh(y + "/cropped"), cropped);
    const int bt = e.g().const_int32(e.fresh(f.name + "/begin"), {4}, {0, int32_t(pad[0]), int32_t(pad[1]), 0});
    const int et = e.g().const_int32(e.fresh(f.name + "/end"), {4},
                                     {0, int32_t(pad[0] + keep[0]), int32_t(pad[1] + keep[1]), 0});
    const int sst = e.g().const_int32(e.fresh(f.name + "/strides"), {4}, {1, 1, 1, 1});
    tflite::StridedSliceOptionsT so;
    so.begin_mask = so.end_mask = 1 | 8;  // batch and channels whole
    tflite::BuiltinOptionsUnion sopts;
    sopts.Set(so);
    e.g().op(BuiltinOp::STRIDED_SLICE, {t, bt, et, sst}, {ct}, std::move(sopts));
    t = ct;
    if (padded) {
      const int pt = e.g().const_int32(e.fresh(f.name + "/paddings"), {4, 2},
                                       {0, 0, 0, int32_t(out[0] - keep[0]), 0, int32_t(out[1] - keep[1]), 0, 0});
      const int padt =
          has_bias ? e.g().tensor(e.fresh(y + "/padded"), {xs[0], out[0], out[1], cout}) : e.define(y, cl);
      e.g().op(BuiltinOp::PAD, {t, pt}, {padt}, {});
      t = padt;
    }
  }
  if (has_bias) {
    const int b = e.g().const_float(e.fresh(f.inputs[2]), {cout}, e.parameter(f.inputs[2]).data);
    const int yt = e.define(y, cl);
    tflite::BuiltinOptionsUnion aopts;
    aopts.Set(tflite::AddOptionsT{});
    e.g().op(BuiltinOp::ADD, {t, b}, {yt}, std::move(aopts));
  }
}

}  // namespace

void add_deconvolution_rules(std::map<std::string, Rule>& rules) { rules["Deconvolution"] = emit_deconvolution; }

}  // namespace nn::formats::tflite_export
