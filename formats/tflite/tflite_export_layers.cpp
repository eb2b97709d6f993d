// TFLite export rules for layers: convolutions (BN folded, activation fused), Affine, pooling, BatchNormalization.
#include <cmath>
#include <limits>

#include "formats/tflite/tflite_exporter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::tflite_export {
namespace {

using tflite_io::BuiltinOp;

// The ReLU / ReLU6 that alone reads `out` is folded into the producing operator; `out` becomes its output.
tflite::ActivationFunctionType fuse_activation(Exporter& e, std::string& out) {
  const ir::Function* c = e.sole_consumer(out);
  if (c == nullptr || c->outputs.size() != 1) return tflite::ActivationFunctionType_NONE;
  tflite::ActivationFunctionType act;
  if (c->type == "ReLU") {
    act = tflite::ActivationFunctionType_RELU;
  } else if (c->type == "ReLU6") {
    act = tflite::ActivationFunctionType_RELU6;
  } else {
    return tflite::ActivationFunctionType_NONE;
  }
  e.absorb(*c);
  out = c->outputs[0];
  return act;
}

struct BnParams {
  std::vector<float> scale, shift;  // y = x * scale + shift per channel
};
BnParams bn_params(Exporter& e, const ir::Function& bn, int64_t channels) {
  NN_CHECK(!bn.attrs.get_bool("batch_stat", false))
      << "batch_stat=true (statistics of the batch) cannot be exported; use the inference network";
  bool no_bias = bn.attrs.get_bool("no_bias", false), no_scale = bn.attrs.get_bool("no_scale", false);
  size_t i = 1;
  const std::vector<float>* beta = no_bias ? nullptr : &e.parameter(bn.inputs.at(i++)).data;
  const std::vector<float>* gamma = no_scale ? nullptr : &e.parameter(bn.inputs.at(i++)).data;
  const std::vector<float>& mean = e.parameter(bn.inputs.at(i++)).data;
  const std::vector<float>& var = e.parameter(bn.inputs.at(i++)).data;
  NN_CHECK(int64_t(mean.size()) == channels)
      << "statistics have " << mean.size() << " values for " << channels << " channels";
  double eps = bn.attrs.get_float("eps", 1e-5);
  BnParams p;
  for (int64_t c = 0; c < channels; ++c) {
    double s = (gamma ? (*gamma)[size_t(c)] : 1.0) / std::sqrt(double(var[size_t(c)]) + eps);
    p.scale.push_back(float(s));
    p.shift.push_back(float((beta ? (*beta)[size_t(c)] : 0.0) - mean[size_t(c)] * s));
  }
  return p;
}

bool folds_bn(const ir::Function& bn, int64_t channel_axis) {
  auto axes = bn.attrs.get_ints("axes", {1});
  return bn.type == "BatchNormalization" && axes == std::vector<int64_t>{channel_axis} &&
         !bn.attrs.get_bool("batch_stat", false);
}

// Explicit (before, after) padding of one spatial axis, or SAME / VALID when they compute the same windows.
struct AxisPad {
  int64_t before = 0, after = 0;
};
bool same_matches(int64_t in, int64_t k_eff, int64_t s, int64_t before, int64_t out) {
  int64_t same_out = (in + s - 1) / s;
  int64_t total = std::max<int64_t>((same_out - 1) * s + k_eff - in, 0);
  return same_out == out && total / 2 == before;
}

void emit_conv(Exporter& e, const ir::Function& f) {
  const bool depthwise_fn = f.type == "DepthwiseConvolution";
  // channel_last=true: (N, H, W, C) data as TFLite stores it and an (O, kh, kw, C/group) weight.
  const bool cl_data = !depthwise_fn && f.attrs.get_bool("channel_last", false);
  const size_t sp = cl_data ? 1 : 2;  // the first spatial axis
  const std::string& x = f.inputs.at(0);
  const std::string& w = f.inputs.at(1);
  const Shape& xs = e.shape(x);
  const Shape& ws = e.shape(w);
  NN_CHECK(f.attrs.get_int("base_axis", 1) == 1 && xs.size() == 4 && ws.size() == (depthwise_fn ? 3u : 4u))
      << "only 2-D convolutions of " << (cl_data ? "(N, H, W, C)" : "(N, C, H, W)")
      << " inputs are supported (input " << xs << ", weight " << ws << ")";
  auto pad = f.attrs.get_shape_or("pad", {0, 0});
  auto stride = f.attrs.get_shape_or("stride", {1, 1});
  auto dil = f.attrs.get_shape_or("dilation", {1, 1});
  NN_CHECK(pad.size() == 2 && stride.size() == 2 && dil.size() == 2) << "pad/stride/dilation must have 2 values";
  const int64_t channels = xs[cl_data ? 3 : 1];
  const int64_t group = depthwise_fn ? channels : f.attrs.get_int("group", 1);
  int64_t outs, kh, kw;
  if (depthwise_fn || cl_data) {
    outs = ws[0], kh = ws[1], kw = ws[2];
  } else {
    outs = ws[0], kh = ws[2], kw = ws[3];
  }
  const bool depthwise = group > 1;
  NN_CHECK(group == 1 || (group == channels && outs % channels == 0))
      << "group " << group << " is neither 1 nor the channel count " << channels;
  const std::vector<float>& wd = e.parameter(w).data;
  std::vector<float> bias(size_t(outs), 0.0f);
  if (f.inputs.size() > 2 && !f.inputs[2].empty()) bias = e.parameter(f.inputs[2]).data;
  std::string out = f.outputs.at(0);
  std::vector<float> scale(size_t(outs), 1.0f);
  if (const ir::Function* bn = e.sole_consumer(out); bn && folds_bn(*bn, cl_data ? 3 : 1)) {
    BnParams p = bn_params(e, *bn, outs);
    for (int64_t o = 0; o < outs; ++o) {
      scale[size_t(o)] = p.scale[size_t(o)];
      bias[size_t(o)] = bias[size_t(o)] * p.scale[size_t(o)] + p.shift[size_t(o)];
    }
    e.absorb(*bn);
    out = bn->outputs.at(0);
  }
  const int64_t cin = depthwise ? 1 : channels;
  Shape tw = depthwise ? Shape{1, kh, kw, outs} : Shape{outs, kh, kw, cin};
  std::vector<float> twd(size_t(shape_size(tw)));
  for (int64_t o = 0; o < outs; ++o)
    for (int64_t c = 0; c < cin; ++c)
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < kw; ++j) {
          const size_t from =
              cl_data ? size_t(((o * kh + i) * kw + j) * cin + c) : size_t(((o * cin + c) * kh + i) * kw + j);
          float v = wd[from] * scale[size_t(o)];
          size_t at = depthwise ? size_t((i * kw + j) * outs + o) : size_t(((o * kh + i) * kw + j) * cin + c);
          twd[at] = v;
        }
  const Perm cl = cl_data ? identity_perm(4) : channel_last_perm(4);
  int xt = e.in_order(x, cl);
  const Shape& ys = e.shape(out);
  tflite::Padding padding = tflite::Padding_VALID;
  if (pad[0] != 0 || pad[1] != 0) {
    if (same_matches(xs[sp], dil[0] * (kh - 1) + 1, stride[0], pad[0], ys[sp]) &&
        same_matches(xs[sp + 1], dil[1] * (kw - 1) + 1, stride[1], pad[1], ys[sp + 1])) {
      padding = tflite::Padding_SAME;
    } else {
      std::vector<int32_t> p = {0, 0, int32_t(pad[0]), int32_t(pad[0]), int32_t(pad[1]), int32_t(pad[1]), 0, 0};
      int pt = e.g().const_int32(e.fresh(f.name + "/paddings"), {4, 2}, p);
      Shape s = e.g().shape(xt);
      s[1] += 2 * pad[0];
      s[2] += 2 * pad[1];
      int padded = e.g().tensor(e.fresh(x + "/padded"), s);
      e.g().op(BuiltinOp::PAD, {xt, pt}, {padded}, {});
      xt = padded;
    }
  }
  int wt = e.g().const_float(e.fresh(w), tw, twd);
  int bt = e.g().const_float(e.fresh(f.inputs.size() > 2 && !f.inputs[2].empty() ? f.inputs[2] : f.name + "/bias"),
                             {outs}, bias);
  tflite::ActivationFunctionType act = fuse_activation(e, out);
  int yt = e.define(out, cl);
  tflite::BuiltinOptionsUnion opts;
  if (depthwise) {
    tflite::DepthwiseConv2DOptionsT o;
    o.padding = padding;
    o.stride_h = int32_t(stride[0]), o.stride_w = int32_t(stride[1]);
    o.dilation_h_factor = int32_t(dil[0]), o.dilation_w_factor = int32_t(dil[1]);
    o.depth_multiplier = int32_t(outs / channels);
    o.fused_activation_function = act;
    opts.Set(o);
  } else {
    tflite::Conv2DOptionsT o;
    o.padding = padding;
    o.stride_h = int32_t(stride[0]), o.stride_w = int32_t(stride[1]);
    o.dilation_h_factor = int32_t(dil[0]), o.dilation_w_factor = int32_t(dil[1]);
    o.fused_activation_function = act;
    opts.Set(o);
  }
  e.g().op(depthwise ? BuiltinOp::DEPTHWISE_CONV_2D : BuiltinOp::CONV_2D, {xt, wt, bt}, {yt}, std::move(opts));
}

void emit_affine(Exporter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  const std::string& w = f.inputs.at(1);
  const Shape& xs = e.shape(x);
  const Shape& ws = e.shape(w);
  const int64_t b = f.attrs.get_int("base_axis", 1);
  NN_CHECK(b >= 1 && b < int64_t(xs.size())) << "base_axis " << b << " out of range for input " << xs;
  const int64_t inner = shape_size(xs, size_t(b), xs.size());
  const int64_t outs = shape_size(ws, 1, ws.size());
  NN_CHECK(ws.size() >= 2 && ws[0] == inner) << "weight shape " << ws << " does not match input " << xs;
  Value xv = e.value(x);
  // FULLY_CONNECTED flattens the TFLite tensor as stored: with NHWC data the weight rows follow (H, W, C).
  Perm keep = xv.perm;
  bool flat_ok = true;
  for (int64_t i = 0; i < b; ++i) flat_ok &= keep[size_t(i)] == i;
  if (!flat_ok) keep = identity_perm(xs.size());
  int xt = e.in_order(x, keep);
  Shape inner_dims(xs.begin() + b, xs.end());
  Perm inner_perm;
  for (size_t i = size_t(b); i < keep.size(); ++i) inner_perm.push_back(keep[i] - int(b));
  Shape inner_strides = shape_strides(inner_dims);
  Shape stored = permute(inner_dims, inner_perm);
  const std::vector<float>& wd = e.parameter(w).data;
  std::vector<float> tw(size_t(outs * inner));
  std::vector<int64_t> idx(stored.size(), 0);
  for (int64_t r = 0; r < inner; ++r) {  // r: row in TFLite order; src: the same element's nnabla row
    int64_t src = 0;
    for (size_t i = 0; i < stored.size(); ++i) src += idx[i] * inner_strides[size_t(inner_perm[i])];
    for (int64_t o = 0; o < outs; ++o) tw[size_t(o * inner + r)] = wd[size_t(src * outs + o)];
    for (size_t i = stored.size(); i-- > 0;) {
      if (++idx[i] < stored[i]) break;
      idx[i] = 0;
    }
  }
  std::vector<float> bias(size_t(outs), 0.0f);
  if (f.inputs.size() > 2 && !f.inputs[2].empty()) bias = e.parameter(f.inputs[2]).data;
  int wt = e.g().const_float(e.fresh(w), {outs, inner}, tw);
  int bt = e.g().const_float(e.fresh(f.inputs.size() > 2 && !f.inputs[2].empty() ? f.inputs[2] : f.name + "/bias"),
                             {outs}, bias);
  std::string out = f.outputs.at(0);
  const Shape ys = e.shape(out);
  const int64_t rows = shape_size(xs, 0, size_t(b));
  const bool plain = ys == Shape{rows, outs};
  tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE;
  if (plain) act = fuse_activation(e, out);
  tflite::FullyConnectedOptionsT o;
  o.fused_activation_function = act;
  tflite::BuiltinOptionsUnion opts;
  opts.Set(o);
  if (plain) {
    int yt = e.define(out, identity_perm(2));
    e.g().op(BuiltinOp::FULLY_CONNECTED, {xt, wt, bt}, {yt}, std::move(opts));
    return;
  }
  int flat = e.g().tensor(e.fresh(out + "/fc"), {rows, outs});
  e.g().op(BuiltinOp::FULLY_CONNECTED, {xt, wt, bt}, {flat}, std::move(opts));
  std::vector<int32_t> dims(ys.begin(), ys.end());
  int st = e.g().const_int32(e.fresh(out + "/shape"), {int64_t(dims.size())}, dims);
  int yt = e.define(out, identity_perm(ys.size()));
  tflite::ReshapeOptionsT ro;
  ro.new_shape = dims;
  tflite::BuiltinOptionsUnion ropts;
  ropts.Set(ro);
  e.g().op(BuiltinOp::RESHAPE, {flat, st}, {yt}, std::move(ropts));
}

void emit_pooling(Exporter& e, const ir::Function& f) {
  const bool is_max = f.type == "MaxPooling";
  const bool cl_data = f.attrs.get_bool("channel_last", false);  // (N, H, W, C) data as TFLite stores it
  const size_t sp = cl_data ? 1 : 2;                             // the first spatial axis
  const std::string& x = f.inputs.at(0);
  const Shape& xs = e.shape(x);
  const Shape& ys = e.shape(f.outputs.at(0));
  auto k = f.attrs.get_ints("kernel", {});
  NN_CHECK(xs.size() == 4 && k.size() == 2)
      << "only 2-D pooling of " << (cl_data ? "(N, H, W, C)" : "(N, C, H, W)") << " inputs is supported";
  auto s = f.attrs.get_shape_or("stride", k);
  auto pad = f.attrs.get_shape_or("pad", {0, 0});
  const bool ignore_border = f.attrs.get_bool("ignore_border", true);
  const bool including_pad = f.attrs.get_bool("including_pad", true);
  const Perm cl = cl_data ? identity_perm(4) : channel_last_perm(4);
  int xt = e.in_order(x, cl);
  tflite::Padding padding = tflite::Padding_VALID;
  // Explicit padding so that VALID windows are nnabla's: `pad` before, and after whatever the last window needs.
  AxisPad ap[2];
  bool any = false;
  for (int a = 0; a < 2; ++a) {
    int64_t in = xs[sp + size_t(a)], out = ys[sp + size_t(a)];
    ap[a].before = pad[size_t(a)];
    ap[a].after = std::max<int64_t>(pad[size_t(a)], (out - 1) * s[size_t(a)] + k[size_t(a)] - in - pad[size_t(a)]);
    any |= ap[a].before != 0 || ap[a].after != 0;
    (void)in;
  }
  if (any) {
    const bool same = same_matches(xs[sp], k[0], s[0], pad[0], ys[sp]) &&
                      same_matches(xs[sp + 1], k[1], s[1], pad[1], ys[sp + 1]);
    if (is_max && same) {
      padding = tflite::Padding_SAME;  // padded cells never win a max
    } else if (!is_max && !including_pad && same) {
      padding = tflite::Padding_SAME;  // TFLite averages over the cells inside the input
    } else {
      bool full = true;  // every window lies inside [-pad, in + pad): the count is always k*k
      for (int a = 0; a < 2; ++a) full &= ap[a].after == pad[size_t(a)];
      NN_CHECK(is_max || (including_pad && full))
          << "average pooling with ignore_border=" << (ignore_border ? "true" : "false")
          << ", including_pad=" << (including_pad ? "true" : "false") << " and pad " << Shape(pad)
          << " has no TFLite equivalent";
      std::vector<int32_t> p = {
          0, 0, int32_t(ap[0].before), int32_t(ap[0].after), int32_t(ap[1].before), int32_t(ap[1].after), 0, 0};
      int pt = e.g().const_int32(e.fresh(f.name + "/paddings"), {4, 2}, p);
      Shape ps = e.g().shape(xt);
      ps[1] += ap[0].before + ap[0].after;
      ps[2] += ap[1].before + ap[1].after;
      int padded = e.g().tensor(e.fresh(x + "/padded"), ps);
      if (is_max) {
        int cv = e.g().const_float(e.fresh(f.name + "/pad_value"), {}, {std::numeric_limits<float>::lowest()});
        e.g().op(BuiltinOp::PADV2, {xt, pt, cv}, {padded}, {});
      } else {
        e.g().op(BuiltinOp::PAD, {xt, pt}, {padded}, {});
      }
      xt = padded;
    }
  }
  std::string out = f.outputs.at(0);
  int yt = e.define(out, cl);
  tflite::Pool2DOptionsT o;
  o.padding = padding;
  o.stride_h = int32_t(s[0]), o.stride_w = int32_t(s[1]);
  o.filter_height = int32_t(k[0]), o.filter_width = int32_t(k[1]);
  tflite::BuiltinOptionsUnion opts;
  opts.Set(o);
  e.g().op(is_max ? BuiltinOp::MAX_POOL_2D : BuiltinOp::AVERAGE_POOL_2D, {xt}, {yt}, std::move(opts));
}

void emit_global_average_pooling(Exporter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  NN_CHECK(e.shape(x).size() == 4) << "only (N, C, H, W) inputs are supported";
  const Perm cl = channel_last_perm(4);
  int xt = e.in_order(x, cl);
  int axes = e.g().const_int32(e.fresh(f.name + "/axes"), {2}, {1, 2});
  int yt = e.define(f.outputs.at(0), cl);
  tflite::ReducerOptionsT o;
  o.keep_dims = true;
  tflite::BuiltinOptionsUnion opts;
  opts.Set(o);
  e.g().op(BuiltinOp::MEAN, {xt, axes}, {yt}, std::move(opts));
}

// BatchNormalization not folded into a convolution: MUL and ADD by per-channel constants.
void emit_batch_normalization(Exporter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  const Shape& xs = e.shape(x);
  auto axes = f.attrs.get_ints("axes", {1});
  NN_CHECK(axes.size() == 1 && axes[0] >= 0 && axes[0] < int64_t(xs.size())) << "axes must name one axis";
  BnParams p = bn_params(e, f, xs[size_t(axes[0])]);
  Value v = e.value(x);
  Shape bshape(xs.size(), 1);
  bshape[size_t(axes[0])] = xs[size_t(axes[0])];
  Shape stored = permute(bshape, v.perm);  // one non-unit axis: the data order does not change
  int st = e.g().const_float(e.fresh(f.name + "/scale"), stored, p.scale);
  int sh = e.g().const_float(e.fresh(f.name + "/shift"), stored, p.shift);
  int mid = e.g().tensor(e.fresh(f.outputs.at(0) + "/scaled"), e.g().shape(v.tensor));
  tflite::MulOptionsT mo;
  tflite::BuiltinOptionsUnion mopts;
  mopts.Set(mo);
  e.g().op(BuiltinOp::MUL, {v.tensor, st}, {mid}, std::move(mopts));
  std::string out = f.outputs.at(0);
  tflite::AddOptionsT ao;
  ao.fused_activation_function = fuse_activation(e, out);
  tflite::BuiltinOptionsUnion aopts;
  aopts.Set(ao);
  int yt = e.define(out, v.perm);
  e.g().op(BuiltinOp::ADD, {mid, sh}, {yt}, std::move(aopts));
}

}  // namespace

void add_layer_rules(std::map<std::string, Rule>& rules) {
  rules["Convolution"] = emit_conv;
  rules["DepthwiseConvolution"] = emit_conv;
  rules["Affine"] = emit_affine;
  rules["MaxPooling"] = emit_pooling;
  rules["AveragePooling"] = emit_pooling;
  rules["GlobalAveragePooling"] = emit_global_average_pooling;
  rules["BatchNormalization"] = emit_batch_normalization;
}

}  // namespace nn::formats::tflite_export
