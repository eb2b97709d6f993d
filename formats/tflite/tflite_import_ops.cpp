// TFLite import rules: each builtin operator as nnabla functions on NHWC data (convolutions and pooling
// run on an (N, C, H, W) transpose, with TFLite's SAME padding reproduced exactly).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "formats/tflite/tflite_graph.hpp"
#include "formats/tflite/tflite_importer.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::tflite_import {
namespace {

using tflite_io::BuiltinOp;
using Ints = std::vector<int64_t>;

std::string to_nchw(Importer& im, const std::string& x, const Shape& s) {
  std::string y = im.temp(x + "/nchw", {s[0], s[3], s[1], s[2]});
  im.fn("Transpose", {x}, {y}, {{"axes", Ints{0, 3, 1, 2}}});
  return y;
}
std::string to_nhwc(Importer& im, const std::string& x, const Shape& s) {
  std::string y = im.temp(x + "/nhwc", {s[0], s[2], s[3], s[1]});
  im.fn("Transpose", {x}, {y}, {{"axes", Ints{0, 2, 3, 1}}});
  return y;
}

struct Pads {
  int64_t before[2] = {0, 0}, after[2] = {0, 0}, out[2] = {0, 0};
  bool symmetric() const { return before[0] == after[0] && before[1] == after[1]; }
  bool any() const { return before[0] || before[1] || after[0] || after[1]; }
};
// TFLite's padding of a window over `nhwc`'s H and W. The output must be the declared `out_nhwc`, and the
// window (dilated) at most 2 x input + its data-backed taps (`taps`: the filter's size for a convolution, 1 for
// a pooling window, which no data backs): nncli materializes the padding, so an absurd window in a small
// file would otherwise cost gigabytes.
Pads tflite_pads(tflite::Padding padding, const Shape& nhwc, const Shape& out_nhwc, int64_t kh, int64_t kw,
                 int64_t sh, int64_t sw, int64_t dh = 1, int64_t dw = 1, bool kernel_has_data = true) {
  Pads p;
  const int64_t in[2] = {nhwc[1], nhwc[2]}, s[2] = {sh, sw}, d[2] = {dh, dw}, taps[2] = {kh, kw};
  int64_t k[2];
  for (int a = 0; a < 2; ++a) {
    NN_CHECK(s[a] > 0 && taps[a] > 0 && d[a] > 0) << "strides, dilations and kernel sizes must be positive";
    k[a] = d[a] * (taps[a] - 1) + 1;
  }
  for (int a = 0; a < 2; ++a)
    NN_CHECK(k[a] <= 2 * in[a] + (kernel_has_data ? taps[a] : 1))
        << "window " << k[0] << "x" << k[1] << " is larger than an input of " << in[0] << "x" << in[1]
        << " allows (2 x input + " << (kernel_has_data ? "filter size" : "1") << ")";
  for (int a = 0; a < 2; ++a) {
    if (padding == tflite::Padding_SAME) {
      p.out[a] = (in[a] + s[a] - 1) / s[a];
      int64_t total = std::max<int64_t>((p.out[a] - 1) * s[a] + k[a] - in[a], 0);
      p.before[a] = total / 2, p.after[a] = total - total / 2;
    } else {
      p.out[a] = (in[a] - k[a] + s[a]) / s[a];
    }
  }
  NN_CHECK(p.out[0] == out_nhwc.at(1) && p.out[1] == out_nhwc.at(2))
      << "a " << k[0] << "x" << k[1] << " window with stride " << s[0] << "x" << s[1] << " over " << in[0] << "x"
      << in[1] << " gives " << p.out[0] << "x" << p.out[1] << ", but the output tensor is " << out_nhwc;
  return p;
}

std::string pad_nchw(Importer& im, const std::string& x, const Shape& s, const Pads& p, double value) {
  Shape ps = {s[0], s[1], s[2] + p.before[0] + p.after[0], s[3] + p.before[1] + p.after[1]};
  std::string y = im.temp(x + "/padded", ps);
  im.fn("Pad", {x}, {y},
        {{"pad_width", Ints{p.before[0], p.after[0], p.before[1], p.after[1]}},
         {"mode", std::string("constant")},
         {"constant_value", value}});
  return y;
}

void conv(Importer& im, const tflite::OperatorT& op, bool depthwise) {
  const int x = op.inputs.at(0), w = op.inputs.at(1);
  const int b = op.inputs.size() > 2 ? op.inputs.at(2) : -1;
  const Shape xs = im.shape(x), ws = im.shape(w), ys = im.shape(op.outputs.at(0));
  NN_CHECK(xs.size() == 4 && ws.size() == 4 && ys.size() == 4) << "input, filter and output must be rank 4";
  NN_CHECK(xs[3] > 0) << "input " << xs << " has no channels";
  tflite::Padding padding;
  int64_t sh, sw, dh, dw;
  tflite::ActivationFunctionType act;
  if (depthwise) {
    const auto* o = op.builtin_options.AsDepthwiseConv2DOptions();
    NN_CHECK(o) << "options are missing";
    padding = o->padding, sh = o->stride_h, sw = o->stride_w, dh = o->dilation_h_factor, dw = o->dilation_w_factor;
    act = o->fused_activation_function;
  } else {
    const auto* o = op.builtin_options.AsConv2DOptions();
    NN_CHECK(o) << "options are missing";
    padding = o->padding, sh = o->stride_h, sw = o->stride_w, dh = o->dilation_h_factor, dw = o->dilation_w_factor;
    act = o->fused_activation_function;
  }
  const int64_t kh = ws[1], kw = ws[2];
  const int64_t outs = depthwise ? ws[3] : ws[0];
  const int64_t cin = depthwise ? 1 : ws[3];
  NN_CHECK(depthwise ? outs % xs[3] == 0 : (cin > 0 && xs[3] % cin == 0))
      << "filter " << ws << " does not fit input " << xs;
  const int64_t group = depthwise ? xs[3] : xs[3] / cin;
  std::vector<float> wd = im.constant(w), nw(wd.size());
  NN_CHECK(int64_t(wd.size()) == shape_size(ws)) << "filter " << ws << " holds " << wd.size() << " values";
  for (int64_t o = 0; o < outs; ++o)
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j)
        for (int64_t c = 0; c < cin; ++c) {
          size_t src = depthwise ? size_t((i * kw + j) * outs + o) : size_t(((o * kh + i) * kw + j) * cin + c);
          nw[size_t(((o * cin + c) * kh + i) * kw + j)] = wd[src];
        }
  std::string wv = im.param(im.tensor(w).name + "/oihw", {outs, cin, kh, kw}, std::move(nw));
  Pads p = tflite_pads(padding, xs, ys, kh, kw, sh, sw, dh, dw);
  std::string xn = to_nchw(im, im.var(x), xs);
  Shape xns = {xs[0], xs[3], xs[1], xs[2]};
  Ints pad = {0, 0};
  if (p.symmetric()) {
    pad = {p.before[0], p.before[1]};
  } else {
    xn = pad_nchw(im, xn, xns, p, 0.0);
  }
  std::vector<std::string> ins = {xn, wv};
  if (b >= 0) ins.push_back(im.var(b));
  Shape yn = {ys[0], ys[3], ys[1], ys[2]};
  std::string y = im.temp(im.op_name() + "/conv", yn);
  im.fn("Convolution", ins, {y},
        {{"base_axis", int64_t(1)},
         {"pad", pad},
         {"stride", Ints{sh, sw}},
         {"dilation", Ints{dh, dw}},
         {"group", group},
         {"channel_last", false}});
  im.finish(to_nhwc(im, y, yn), op.outputs.at(0), act);
}

void pool(Importer& im, const tflite::OperatorT& op, bool is_max) {
  const int x = op.inputs.at(0);
  const Shape xs = im.shape(x), ys = im.shape(op.outputs.at(0));
  const auto* o = op.builtin_options.AsPool2DOptions();
  NN_CHECK(o && xs.size() == 4) << "a rank-4 input and options are required";
  const int64_t kh = o->filter_height, kw = o->filter_width;
  NN_CHECK(ys.size() == 4) << "the output must be rank 4";
  Pads p = tflite_pads(o->padding, xs, ys, kh, kw, o->stride_h, o->stride_w, 1, 1, false);
  Shape xns = {xs[0], xs[3], xs[1], xs[2]};
  std::string xn = to_nchw(im, im.var(x), xs);
  if (p.any()) xn = pad_nchw(im, xn, xns, p, is_max ? double(std::numeric_limits<float>::lowest()) : 0.0);
  Shape yn = {ys[0], ys[3], ys[1], ys[2]};
  std::string y = im.temp(im.op_name() + "/pool", yn);
  Attrs a = {{"kernel", Ints{kh, kw}},
             {"stride", Ints{o->stride_h, o->stride_w}},
             {"ignore_border", true},
             {"pad", Ints{0, 0}},
             {"channel_last", false}};
  if (!is_max) a.set("including_pad", true);
  im.fn(is_max ? "MaxPooling" : "AveragePooling", {xn}, {y}, a);
  if (!is_max && p.any()) {  // TFLite averages over the cells inside the input only
    std::vector<float> ratio(size_t(yn[2] * yn[3]));
    for (int64_t i = 0; i < yn[2]; ++i)
      for (int64_t j = 0; j < yn[3]; ++j) {
        int64_t h0 = i * o->stride_h - p.before[0], w0 = j * o->stride_w - p.before[1];
        int64_t hn = std::min(h0 + kh, xs[1]) - std::max<int64_t>(h0, 0);
        int64_t wn = std::min(w0 + kw, xs[2]) - std::max<int64_t>(w0, 0);
        ratio[size_t(i * yn[3] + j)] = float(double(kh * kw) / double(std::max<int64_t>(hn * wn, 1)));
      }
    std::string r = im.param(im.op_name() + "/count_ratio", {1, 1, yn[2], yn[3]}, std::move(ratio));
    std::string z = im.temp(im.op_name() + "/pool_scaled", yn);
    im.fn("Mul2", {y, r}, {z});
    y = z;
  }
  im.finish(to_nhwc(im, y, yn), op.outputs.at(0), o->fused_activation_function);
}

void fully_connected(Importer& im, const tflite::OperatorT& op) {
  const int x = op.inputs.at(0), w = op.inputs.at(1);
  const int b = op.inputs.size() > 2 ? op.inputs.at(2) : -1;
  const Shape xs = im.shape(x), ws = im.shape(w), ys = im.shape(op.outputs.at(0));
  const auto* o = op.builtin_options.AsFullyConnectedOptions();
  NN_CHECK(ws.size() == 2) << "weights must be rank 2";
  NN_CHECK(!o || o->weights_format == 0) << "shuffled weights are not supported";
  const int64_t outs = ws[0], inner = ws[1];
  NN_CHECK(inner > 0 && shape_size(xs) % inner == 0) << "input " << xs << " does not fit weights " << ws;
  const int64_t rows = shape_size(xs) / inner;
  std::string xv = im.var(x);
  if (xs != Shape{rows, inner}) {
    std::string r = im.temp(xv + "/flat", {rows, inner});
    im.fn("Reshape", {xv}, {r}, {{"shape", Ints{rows, inner}}});
    xv = r;
  }
  std::vector<float> wd = im.constant(w), tw(wd.size());
  for (int64_t i = 0; i < inner; ++i)
    for (int64_t k = 0; k < outs; ++k) tw[size_t(i * outs + k)] = wd[size_t(k * inner + i)];
  std::vector<std::string> ins = {xv, im.param(im.tensor(w).name + "/io", {inner, outs}, std::move(tw))};
  if (b >= 0) ins.push_back(im.var(b));
  std::string y = im.temp(im.op_name() + "/affine", {rows, outs});
  im.fn("Affine", ins, {y}, {{"base_axis", int64_t(1)}});
  if (ys != Shape{rows, outs}) {
    NN_CHECK(shape_size(ys) == rows * outs) << "output " << ys << " does not hold " << rows << "x" << outs;
    std::string r = im.temp(y + "/reshaped", ys);
    im.fn("Reshape", {y}, {r}, {{"shape", Ints(ys.begin(), ys.end())}});
    y = r;
  }
  im.finish(y, op.outputs.at(0), o ? o->fused_activation_function : tflite::ActivationFunctionType_NONE);
}

// Two inputs, numpy broadcasting: the lower-rank one gets leading unit axes.
void binary(Importer& im, const tflite::OperatorT& op, const std::string& type,
            tflite::ActivationFunctionType act) {
  const size_t rank = im.shape(op.outputs.at(0)).size();
  std::vector<std::string> ins;
  for (int k = 0; k < 2; ++k) {
    int t = op.inputs.at(size_t(k));
    std::string v = im.var(t);
    Shape s = im.shape(t);
    if (s.size() < rank) {
      Shape r(rank - s.size(), 1);
      r.insert(r.end(), s.begin(), s.end());
      std::string rv = im.temp(v + "/ranked", r);
      im.fn("Reshape", {v}, {rv}, {{"shape", Ints(r.begin(), r.end())}});
      v = rv;
    }
    ins.push_back(v);
  }
  std::string y = im.temp(im.op_name() + "/" + type, im.shape(op.outputs.at(0)));
  im.fn(type, ins, {y});
  im.finish(y, op.outputs.at(0), act);
}

void unary(Importer& im, const tflite::OperatorT& op, const std::string& type, Attrs attrs = {}) {
  std::string y = im.temp(im.op_name() + "/" + type, im.shape(op.outputs.at(0)));
  im.fn(type, {im.var(op.inputs.at(0))}, {y}, std::move(attrs));
  im.finish(y, op.outputs.at(0));
}

void reshape(Importer& im, const tflite::OperatorT& op) {
  const Shape ys = im.shape(op.outputs.at(0));
  NN_CHECK(shape_size(ys) == shape_size(im.shape(op.inputs.at(0))))
      << "output " << ys << " does not hold input " << im.shape(op.inputs.at(0));
  unary(im, op, "Reshape", {{"shape", Ints(ys.begin(), ys.end())}});
}

int64_t axis_of(int64_t a, size_t rank) {
  if (a < 0) a += int64_t(rank);
  NN_CHECK(a >= 0 && a < int64_t(rank)) << "axis " << a << " out of range for rank " << rank;
  return a;
}

void softmax(Importer& im, const tflite::OperatorT& op) {
  const auto* o = op.builtin_options.AsSoftmaxOptions();
  const Shape s = im.shape(op.inputs.at(0));
  std::string x = im.var(op.inputs.at(0));
  const double beta = o ? o->beta : 1.0;
  if (beta != 1.0) {
    std::string xb = im.temp(x + "/beta", s);
    im.fn("MulScalar", {x}, {xb}, {{"val", beta}});
    x = xb;
  }
  std::string y = im.temp(im.op_name() + "/Softmax", s);
  im.fn("Softmax", {x}, {y}, {{"axis", int64_t(s.size()) - 1}});
  im.finish(y, op.outputs.at(0));
}

void concatenation(Importer& im, const tflite::OperatorT& op) {
  const auto* o = op.builtin_options.AsConcatenationOptions();
  NN_CHECK(o) << "options are missing";
  const Shape ys = im.shape(op.outputs.at(0));
  std::vector<std::string> ins;
  for (int t : op.inputs) ins.push_back(im.var(t));
  std::string y = im.temp(im.op_name() + "/Concatenate", ys);
  im.fn("Concatenate", ins, {y}, {{"axis", axis_of(o->axis, ys.size())}});
  im.finish(y, op.outputs.at(0), o->fused_activation_function);
}

void split(Importer& im, const tflite::OperatorT& op) {
  const int x = op.inputs.at(1);
  const Shape xs = im.shape(x);
  auto axis_v = im.constant_ints(op.inputs.at(0));
  NN_CHECK(axis_v.size() == 1) << "the axis must be one integer";
  const int64_t axis = axis_of(axis_v[0], xs.size());
  const int64_t n = int64_t(op.outputs.size());
  NN_CHECK(n > 0 && xs[size_t(axis)] % n == 0) << "axis " << axis << " of " << xs << " does not split in " << n;
  const int64_t part = xs[size_t(axis)] / n;
  for (int64_t k = 0; k < n; ++k) {
    Ints start(xs.size(), 0), stop(xs.begin(), xs.end()), step(xs.size(), 1);
    start[size_t(axis)] = k * part, stop[size_t(axis)] = (k + 1) * part;
    std::string y =
        im.temp(im.tensor(op.outputs.at(size_t(k))).name + "/Slice", im.shape(op.outputs.at(size_t(k))));
    im.fn("Slice", {im.var(x)}, {y}, {{"start", start}, {"stop", stop}, {"step", step}});
    im.finish(y, op.outputs.at(size_t(k)));
  }
}

void pad(Importer& im, const tflite::OperatorT& op, bool v2) {
  const Shape xs = im.shape(op.inputs.at(0));
  auto p = im.constant_ints(op.inputs.at(1));
  NN_CHECK(p.size() == 2 * xs.size()) << "paddings must be (" << xs.size() << ", 2)";
  double value = 0.0;
  if (v2 && op.inputs.size() > 2 && op.inputs.at(2) >= 0) value = im.constant(op.inputs.at(2)).at(0);
  unary(im, op, "Pad", {{"pad_width", p}, {"mode", std::string("constant")}, {"constant_value", value}});
}

// STRIDED_SLICE with positive strides as nnabla's Slice of the last axes (untouched leading axes, the batch
// among them, are left out so that the slice holds at any batch size).
void strided_slice(Importer& im, const tflite::OperatorT& op) {
  const Shape xs = im.shape(op.inputs.at(0));
  const auto* o = op.builtin_options.AsStridedSliceOptions();
  const Ints b = im.constant_ints(op.inputs.at(1)), e = im.constant_ints(op.inputs.at(2));
  const Ints s =
      op.inputs.size() > 3 && op.inputs.at(3) >= 0 ? im.constant_ints(op.inputs.at(3)) : Ints(xs.size(), 1);
  NN_CHECK(b.size() == xs.size() && e.size() == xs.size() && s.size() == xs.size())
      << "begin, end and strides must have " << xs.size() << " values";
  NN_CHECK_CODE(!o || (o->ellipsis_mask == 0 && o->new_axis_mask == 0 && o->shrink_axis_mask == 0),
                ErrorCode::kUnsupported)
      << "ellipsis, new-axis and shrink-axis masks are not supported";
  Ints start, stop, step;
  bool sliced = false;
  for (size_t a = 0; a < xs.size(); ++a) {
    NN_CHECK_CODE(s[a] > 0, ErrorCode::kUnsupported) << "stride " << s[a] << " (only positive strides are)";
    const int64_t dim = xs[a];
    auto resolve = [dim](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + dim : v, 0, dim); };
    const int64_t lo = o && (o->begin_mask >> a) & 1 ? 0 : resolve(b[a]);
    const int64_t hi = o && (o->end_mask >> a) & 1 ? dim : resolve(e[a]);
    sliced |= lo != 0 || hi != dim || s[a] != 1;
    if (!sliced) continue;
    start.push_back(lo), stop.push_back(std::max(lo, hi)), step.push_back(s[a]);
  }
  if (start.empty()) return unary(im, op, "Identity");
  unary(im, op, "Slice", {{"start", start}, {"stop", stop}, {"step", step}});
}

void reduce(Importer& im, const tflite::OperatorT& op, const std::string& type) {
  const Shape xs = im.shape(op.inputs.at(0));
  Ints axes = im.constant_ints(op.inputs.at(1));
  for (auto& a : axes) a = axis_of(a, xs.size());
  const auto* o = op.builtin_options.AsReducerOptions();
  unary(im, op, type, {{"axes", axes}, {"keep_dims", o ? o->keep_dims : false}});
}

void transpose(Importer& im, const tflite::OperatorT& op) {
  Ints perm = im.constant_ints(op.inputs.at(1));
  NN_CHECK(perm.size() == im.shape(op.inputs.at(0)).size()) << "perm must list every axis";
  unary(im, op, "Transpose", {{"axes", perm}});
}

void resize(Importer& im, const tflite::OperatorT& op, bool bilinear) {
  const int x = op.inputs.at(0);
  const Shape xs = im.shape(x), ys = im.shape(op.outputs.at(0));
  NN_CHECK(xs.size() == 4) << "a rank-4 input is required";
  bool align = false, half = false;
  if (bilinear) {
    if (const auto* o = op.builtin_options.AsResizeBilinearOptions())
      align = o->align_corners, half = o->half_pixel_centers;
  } else if (const auto* o = op.builtin_options.AsResizeNearestNeighborOptions()) {
    align = o->align_corners, half = o->half_pixel_centers;
  }
  NN_CHECK(ys.size() == 4 && ys[0] == xs[0] && ys[3] == xs[3]) << "output " << ys << " does not resize " << xs;
  if (!bilinear && align) {  // TFLite rounds (half away from zero) x * (in - 1) / (out - 1); Interpolate floors
    NN_CHECK_CODE(!half, ErrorCode::kUnsupported) << "align_corners with half_pixel_centers is not supported";
    std::string y = im.temp(im.op_name() + "/ONNXResize", ys);
    im.fn("ONNXResize", {im.var(x)}, {y},
          {{"sizes", Ints(ys.begin(), ys.end())},
           {"mode", std::string("nearest")},
           {"coordinate_transformation_mode", std::string("align_corners")},
           {"nearest_mode", std::string("round_prefer_ceil")}});
    return im.finish(y, op.outputs.at(0));
  }
  std::string xn = to_nchw(im, im.var(x), xs);
  Shape yn = {ys[0], ys[3], ys[1], ys[2]};
  std::string y = im.temp(im.op_name() + "/Interpolate", yn);
  Attrs a = {{"output_size", Ints{ys[1], ys[2]}},
             {"mode", std::string(bilinear ? "linear" : "nearest")},
             {"align_corners", align},
             {"half_pixel", half},
             {"channel_last", false}};
  if (!bilinear) a.set("half_pixel_for_nn", half);
  im.fn("Interpolate", {xn}, {y}, a);
  im.finish(to_nhwc(im, y, yn), op.outputs.at(0));
}

tflite::ActivationFunctionType arith_act(const tflite::OperatorT& op) {
  if (const auto* o = op.builtin_options.AsAddOptions()) return o->fused_activation_function;
  if (const auto* o = op.builtin_options.AsSubOptions()) return o->fused_activation_function;
  if (const auto* o = op.builtin_options.AsMulOptions()) return o->fused_activation_function;
  if (const auto* o = op.builtin_options.AsDivOptions()) return o->fused_activation_function;
  return tflite::ActivationFunctionType_NONE;
}

std::map<int32_t, Rule> make_rules() {
  std::map<int32_t, Rule> r;
  auto add = [&](BuiltinOp op, Rule rule) { r[int32_t(op)] = std::move(rule); };
  add(BuiltinOp::CONV_2D, [](Importer& im, const tflite::OperatorT& op) { conv(im, op, false); });
  add(BuiltinOp::DEPTHWISE_CONV_2D, [](Importer& im, const tflite::OperatorT& op) { conv(im, op, true); });
  add(BuiltinOp::MAX_POOL_2D, [](Importer& im, const tflite::OperatorT& op) { pool(im, op, true); });
  add(BuiltinOp::AVERAGE_POOL_2D, [](Importer& im, const tflite::OperatorT& op) { pool(im, op, false); });
  add(BuiltinOp::FULLY_CONNECTED, fully_connected);
  for (auto [op, type] : {std::pair{BuiltinOp::ADD, "Add2"},
                          {BuiltinOp::SUB, "Sub2"},
                          {BuiltinOp::MUL, "Mul2"},
                          {BuiltinOp::DIV, "Div2"},
                          {BuiltinOp::MAXIMUM, "Maximum2"},
                          {BuiltinOp::MINIMUM, "Minimum2"}}) {
    std::string t = type;
    add(op, [t](Importer& im, const tflite::OperatorT& o) { binary(im, o, t, arith_act(o)); });
  }
  for (auto [op, type] : {std::pair{BuiltinOp::LOGISTIC, "Sigmoid"},
                          {BuiltinOp::TANH, "Tanh"},
                          {BuiltinOp::RELU, "ReLU"},
                          {BuiltinOp::RELU6, "ReLU6"},
                          {BuiltinOp::EXP, "Exp"},
                          {BuiltinOp::LOG, "Log"},
                          {BuiltinOp::ABS, "Abs"},
                          {BuiltinOp::ELU, "ELU"},
                          {BuiltinOp::QUANTIZE, "Identity"},
                          {BuiltinOp::DEQUANTIZE, "Identity"}}) {
    std::string t = type;
    add(op, [t](Importer& im, const tflite::OperatorT& o) { unary(im, o, t); });
  }
  add_leaky_relu_rule(r);
  add(BuiltinOp::RELU_N1_TO_1, [](Importer& im, const tflite::OperatorT& op) {
    std::string m = im.temp(im.op_name() + "/lower", im.shape(op.outputs.at(0)));
    im.fn("MaximumScalar", {im.var(op.inputs.at(0))}, {m}, {{"val", -1.0}});
    std::string y = im.temp(im.op_name() + "/upper", im.shape(op.outputs.at(0)));
    im.fn("MinimumScalar", {m}, {y}, {{"val", 1.0}});
    im.finish(y, op.outputs.at(0));
  });
  add(BuiltinOp::SQRT, [](Importer& im, const tflite::OperatorT& op) {
    unary(im, op, "PowScalar", {{"val", 0.5}});
  });
  add(BuiltinOp::RESHAPE, reshape);
  add(BuiltinOp::SQUEEZE, reshape);
  add(BuiltinOp::SOFTMAX, softmax);
  add(BuiltinOp::CONCATENATION, concatenation);
  add(BuiltinOp::SPLIT, split);
  add(BuiltinOp::PAD, [](Importer& im, const tflite::OperatorT& op) { pad(im, op, false); });
  add(BuiltinOp::PADV2, [](Importer& im, const tflite::OperatorT& op) { pad(im, op, true); });
  add(BuiltinOp::MEAN, [](Importer& im, const tflite::OperatorT& op) { reduce(im, op, "Mean"); });
  add(BuiltinOp::SUM, [](Importer& im, const tflite::OperatorT& op) { reduce(im, op, "Sum"); });
  add(BuiltinOp::REDUCE_MAX, [](Importer& im, const tflite::OperatorT& op) { reduce(im, op, "Max"); });
  add(BuiltinOp::TRANSPOSE, transpose);
  add(BuiltinOp::STRIDED_SLICE, strided_slice);
  add_transpose_conv_rule(r);
  add(BuiltinOp::RESIZE_BILINEAR, [](Importer& im, const tflite::OperatorT& op) { resize(im, op, true); });
  add(BuiltinOp::RESIZE_NEAREST_NEIGHBOR,
      [](Importer& im, const tflite::OperatorT& op) { resize(im, op, false); });
  return r;
}

}  // namespace

const Rule* find_import_rule(int32_t builtin_code) {
  static const std::map<int32_t, Rule> rules = make_rules();
  auto it = rules.find(builtin_code);
  return it == rules.end() ? nullptr : &it->second;
}

}  // namespace nn::formats::tflite_import
