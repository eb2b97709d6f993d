// ONNX export rules for layers: Affine, convolutions, pooling, batch normalization, softmax, PReLU, matmul.
#include <algorithm>
#include <cmath>
#include <limits>

#include "formats/onnx/export/onnx_emitter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx_export {
namespace {

Shape concat(Shape a, const Shape& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The weight BinaryWeightAffine applies, as its forward computes it from the float weight W (inner, outs):
// sign(W) (0 -> quantize_zero_to) times alpha = mean |W| of each output column.
std::vector<float> binary_weight_affine_weight(const ir::Function& f, const ir::Parameter& w, int64_t inner,
                                               int64_t outs) {
  const float zero_to = float(f.attrs.get_float("quantize_zero_to", 1.0));
  std::vector<double> alpha(size_t(outs), 0.0);
  for (int64_t i = 0; i < inner; ++i)
    for (int64_t o = 0; o < outs; ++o) alpha[size_t(o)] += std::fabs(w.data[size_t(i * outs + o)]);
  std::vector<float> out(w.data.size());
  for (int64_t i = 0; i < inner; ++i)
    for (int64_t o = 0; o < outs; ++o) {
      const float v = w.data[size_t(i * outs + o)];
      const float sign = v > 0.f ? 1.f : v < 0.f ? -1.f : zero_to;
      out[size_t(i * outs + o)] = sign * float(alpha[size_t(o)] / double(inner));
    }
  return out;
}

void emit_affine(Emitter& e, const ir::Function& f) {
  // BinaryConnectAffine (x, weight, binary_weight, bias): the binarised weight; BinaryWeightAffine
  // (x, weight, binary_weight, alpha, bias): the scaled binary weight, folded into one initializer.
  const bool binary = f.type == "BinaryConnectAffine";
  const bool scaled = f.type == "BinaryWeightAffine";
  const std::string& x = f.inputs.at(0);
  const std::string& w = f.inputs.at(binary || scaled ? 2 : 1);
  size_t bias_index = scaled ? 4 : binary ? 3 : 2;
  const Shape& xs = e.shape(x);
  int64_t b = f.attrs.get_int("base_axis", 1);
  NN_CHECK(b >= 0 && b < int64_t(xs.size())) << "base_axis " << b << " out of range for input " << xs;
  NN_CHECK(e.is_parameter(w) || e.dialect() == Dialect::kTensorRt)
      << "weight '" << w << "' must be a parameter for ONNX Gemm";
  int64_t rows = shape_size(xs, 0, b), inner = shape_size(xs, b, xs.size());
  Shape ws = e.shape(w);
  int64_t outs = shape_size(ws, 1, ws.size());
  NN_CHECK(ws.size() >= 1 && ws[0] == inner) << "weight shape " << ws << " does not match input " << xs;
  std::string a = x;
  if (xs.size() != size_t(2) || b != 1) a = e.reshape(x, {rows, inner});
  bool snpe = e.dialect() == Dialect::kSnpe;
  NN_CHECK(!scaled || (e.is_parameter(f.inputs.at(1)) && e.is_parameter(w)))
      << "weight '" << f.inputs.at(1) << "' must be a parameter for ONNX export";
  if (e.is_parameter(w)) {
    std::vector<float> data =
        scaled ? binary_weight_affine_weight(f, *e.parameter(f.inputs.at(1)), inner, outs) : e.parameter(w)->data;
    if (snpe) {
      std::vector<float> t(data.size());
      for (int64_t i = 0; i < inner; ++i)
        for (int64_t o = 0; o < outs; ++o) t[o * inner + i] = data[i * outs + o];
      e.replace_parameter_data(w, {outs, inner}, std::move(t));
    } else if (scaled) {
      e.replace_parameter_data(w, {inner, outs}, std::move(data));
    } else {
      e.reshape_parameter(w, {inner, outs});
    }
  }
  std::string bias;
  if (f.inputs.size() > bias_index && !f.inputs[bias_index].empty()) {
    bias = f.inputs[bias_index];
    if (e.is_parameter(bias)) e.reshape_parameter(bias, {outs});
  } else {
    bias = e.float_initializer("affine_bias", std::vector<float>(outs, 0.0f), {outs});
  }
  const Shape& ys = e.shape(f.outputs.at(0));
  bool same = ys == Shape{rows, outs};
  std::string y = same ? f.outputs[0] : e.fresh(f.outputs[0], "gemm");
  onnx::NodeProto* n = e.node("Gemm", {a, w, bias}, {y}, e.node_name("Gemm"));
  set_attr(n, "alpha", 1.0f);
  set_attr(n, "beta", 1.0f);
  set_attr(n, "transA", int64_t(0));
  set_attr(n, "transB", int64_t(snpe ? 1 : 0));
  if (e.table() < 7 || snpe) set_attr(n, "broadcast", int64_t(1));
  if (!same) e.reshape(y, ys, f.outputs[0]);
}

// Convolution, DepthwiseConvolution, Deconvolution, DepthwiseDeconvolution and BinaryConnect variants.
void emit_conv(Emitter& e, const ir::Function& f) {
  bool deconv = f.type.find("Deconvolution") != std::string::npos;
  bool depthwise = f.type.rfind("Depthwise", 0) == 0;
  NN_CHECK(!f.attrs.get_bool("channel_last", false)) << "channel_last=true is not supported for ONNX export";
  const std::string& x = f.inputs.at(0);
  std::string w = f.type.rfind("BinaryConnect", 0) == 0 && f.inputs.size() > 2 ? f.inputs.at(2) : f.inputs.at(1);
  Shape xs = e.shape(x), ws = e.shape(w);
  int64_t b = f.attrs.get_int("base_axis", 1);
  std::vector<int64_t> pad = f.attrs.get_ints("pad", {});
  size_t k = pad.empty() ? xs.size() - b - 1 : pad.size();
  std::vector<int64_t> stride = f.attrs.get_ints("stride", std::vector<int64_t>(k, 1));
  std::vector<int64_t> dilation = f.attrs.get_ints("dilation", std::vector<int64_t>(k, 1));
  if (pad.empty()) pad.assign(k, 0);
  int64_t channels = xs[b];
  int64_t group = f.attrs.get_int("group", 1);
  Shape kernel(ws.end() - k, ws.end());
  Shape wdims = ws;
  if (depthwise) {
    if (deconv) {
      group = channels / f.attrs.get_int("divisor", 1);
      wdims = concat({ws[0], 1}, kernel);
    } else {
      group = channels;
      wdims = concat({ws[0], 1}, kernel);
    }
  }
  Shape spatial(xs.begin() + b + 1, xs.end());
  bool one_d = k == 1;
  if (one_d) {  // as 2-D with a trailing unit axis
    spatial.push_back(1);
    kernel.push_back(1);
    wdims.push_back(1);
    pad.push_back(0);
    stride.push_back(1);
    dilation.push_back(1);
  }
  Shape xin = concat({shape_size(xs, 0, b), channels}, spatial);
  std::string input = (xin == xs) ? x : e.reshape(x, xin);
  if (wdims != ws) {
    if (e.is_parameter(w)) {
      e.reshape_parameter(w, wdims);
    } else {
      w = e.reshape(w, wdims);
    }
  }
  std::vector<std::string> inputs = {input, w};
  size_t bias_index = f.type.rfind("BinaryConnect", 0) == 0 ? 3 : 2;
  if (f.inputs.size() > bias_index && !f.inputs[bias_index].empty()) inputs.push_back(f.inputs[bias_index]);
  const Shape& ys = e.shape(f.outputs.at(0));
  Shape ys_onnx = concat({shape_size(ys, 0, b), ys[b]}, Shape(ys.begin() + b + 1, ys.end()));
  if (one_d) ys_onnx.push_back(1);
  bool same = ys_onnx == ys;
  std::string y = same ? f.outputs[0] : e.fresh(f.outputs[0], "conv");
  onnx::NodeProto* n = e.node(deconv ? "ConvTranspose" : "Conv", inputs, {y});
  set_attr(n, "dilations", dilation);
  set_attr(n, "group", group);
  set_attr(n, "kernel_shape", kernel);
  if (deconv) {
    std::vector<int64_t> op = f.attrs.get_ints("output_padding", {});
    op.resize(kernel.size(), 0);
    set_attr(n, "output_padding", op);
  }
  set_attr(n, "pads", concat(pad, pad));
  set_attr(n, "strides", stride);
  if (!same) e.reshape(y, ys, f.outputs[0]);
}

// Max/Average/SumPooling with the pads in the pool node (partial windows of ignore_border=false as end pads).
void emit_pool(Emitter& e, const ir::Function& f) {
  NN_CHECK(!f.attrs.get_bool("channel_last", false)) << "channel_last=true is not supported for ONNX export";
  const std::string& x = f.inputs.at(0);
  Shape xs = e.shape(x);
  std::vector<int64_t> kernel = f.attrs.get_ints("kernel", {});
  size_t k = kernel.size();
  NN_CHECK(k >= 1 && xs.size() >= k + 1) << "kernel " << kernel << " does not fit input " << xs;
  std::vector<int64_t> stride = f.attrs.get_ints("stride", kernel);
  std::vector<int64_t> pad = f.attrs.get_ints("pad", std::vector<int64_t>(k, 0));
  bool ignore_border = f.attrs.get_bool("ignore_border", true);
  std::vector<int64_t> end = pad;
  if (!ignore_border) {
    for (size_t i = 0; i < k; ++i) {
      int64_t n = xs[xs.size() - k + i] + pad[i];
      int64_t r = n % stride[i];
      int64_t extra = r == 0 ? kernel[i] - stride[i] : kernel[i] - r;
      end[i] = std::max<int64_t>(pad[i], pad[i] + std::max<int64_t>(extra, 0));
    }
  }
  Shape xin = xs;
  if (xs.size() != k + 2) {
    Shape lead(xs.begin(), xs.end() - k);
    int64_t n0 = xs.size() > k ? lead[0] : 1;
    xin = concat({lead.size() >= 2 ? n0 : 1, shape_size(lead) / (lead.size() >= 2 ? n0 : 1)},
                 Shape(xs.end() - k, xs.end()));
  }
  std::string input = xin == xs ? x : e.reshape(x, xin);
  bool max_pool = f.type == "MaxPooling";
  bool any_pad = std::any_of(pad.begin(), pad.end(), [](int64_t p) { return p != 0; }) || end != pad;
  if (max_pool && any_pad && e.dialect() == Dialect::kPlain) {
    // As upstream: a separate Pad node with -inf, then the pool without pads.
    size_t rank = xin.size();
    std::vector<int64_t> pads(2 * rank, 0);
    for (size_t i = 0; i < k; ++i) {
      pads[rank - k + i] = pad[i];
      pads[2 * rank - k + i] = end[i];
    }
    std::string padded = e.fresh(input, "pad");
    float ninf = -std::numeric_limits<float>::infinity();
    if (e.table() >= 11) {
      e.node("Pad", {input, e.int64_constant(padded, pads), e.float_constant(padded, {ninf}, {}, "value")},
             {padded});
    } else {
      onnx::NodeProto* p = e.node("Pad", {input}, {padded});
      set_attr(p, "pads", pads);
      set_attr(p, "value", ninf);
    }
    input = padded;
    std::fill(pad.begin(), pad.end(), 0);
    end = pad;
  }
  const Shape& ys = e.shape(f.outputs.at(0));
  bool same = xin == xs;
  bool sum = f.type == "SumPooling";
  std::string y = same && !sum ? f.outputs[0] : e.fresh(f.outputs[0], "pool");
  const char* op = f.type == "MaxPooling" ? "MaxPool" : "AveragePool";
  onnx::NodeProto* n = e.node(op, {input}, {y});
  set_attr(n, "kernel_shape", kernel);
  set_attr(n, "pads", concat(pad, end));
  set_attr(n, "strides", stride);
  if (f.type != "MaxPooling" && e.table() >= 7)
    set_attr(n, "count_include_pad", int64_t(sum || f.attrs.get_bool("including_pad", true) ? 1 : 0));
  if (sum) {
    std::string c = e.float_constant(y, {float(shape_size(kernel))}, {1});
    std::string m = same ? f.outputs[0] : e.fresh(f.outputs[0], "mul");
    e.node("Mul", {y, c}, {m}, e.node_name("Mul"));
    y = m;
  }
  if (!same) e.reshape(y, ys, f.outputs[0]);
}

void emit_global_average(Emitter& e, const ir::Function& f) {
  e.node("GlobalAveragePool", {f.inputs.at(0)}, {f.outputs.at(0)});
}

void emit_batch_norm(Emitter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  Shape xs = e.shape(x);
  std::vector<int64_t> axes = f.attrs.get_ints("axes", {1});
  int64_t axis = axes.empty() ? 1 : axes[0];
  NN_CHECK(axis >= 0 && axis < int64_t(xs.size())) << "axes[0] " << axis << " out of range for " << xs;
  int64_t c = xs[axis];
  for (size_t i = 1; i < 5 && i < f.inputs.size(); ++i)
    if (e.is_parameter(f.inputs[i])) e.reshape_parameter(f.inputs[i], {c});
  Shape xin = xs;
  if (axis != 1 || xs.size() < 3) xin = {shape_size(xs, 0, axis), c, shape_size(xs, axis + 1, xs.size())};
  std::string input = xin == xs ? x : e.reshape(x, xin);
  bool same = xin == xs;
  bool fused = f.type == "FusedBatchNormalization";
  std::string y = same && !fused ? f.outputs.at(0) : e.fresh(f.outputs.at(0), "bn");
  onnx::NodeProto* n =
      e.node("BatchNormalization", {input, f.inputs.at(2), f.inputs.at(1), f.inputs.at(3), f.inputs.at(4)}, {y});
  double eps = f.attrs.get_float("eps", 1e-5);
  double decay = f.attrs.get_float("decay_rate", 0.9);
  set_attr(n, "epsilon", float(eps == 0 ? 1e-5 : eps));
  set_attr(n, "momentum", float(decay == 0 ? 0.9 : decay));
  if (e.table() < 7) set_attr(n, "is_test", int64_t(1));
  if (fused) {
    NN_CHECK(f.attrs.get_string("nonlinearity", "relu") == "relu") << "nonlinearity must be relu";
    std::string r = y;
    if (f.inputs.size() > 5 && !f.inputs[5].empty()) {
      std::string z = same ? f.inputs[5] : e.reshape(f.inputs[5], xin);
      r = e.fresh(y, "add");
      e.node("Add", {y, z}, {r}, e.node_name("Add"));
    }
    std::string relu_out = same ? f.outputs[0] : e.fresh(y, "relu");
    e.node("Relu", {r}, {relu_out}, e.node_name("Relu"));
    y = relu_out;
  }
  if (!same) e.reshape(y, xs, f.outputs[0]);
}

std::string reduce(Emitter& e, const char* op, const std::string& x, int64_t axis, const std::string& suffix) {
  std::string y = e.fresh(x, suffix);
  bool axes_input = e.table() >= 13 && std::string(op) == "ReduceSum";
  onnx::NodeProto* n =
      axes_input ? e.node(op, {x, e.int64_initializer("axes", {axis})}, {y}) : e.node(op, {x}, {y});
  if (!axes_input) set_attr(n, "axes", std::vector<int64_t>{axis});
  set_attr(n, "keepdims", int64_t(1));
  return y;
}

void emit_softmax(Emitter& e, const ir::Function& f) {
  const std::string& x = f.inputs.at(0);
  int64_t axis = f.attrs.get_int("axis", int64_t(e.shape(x).size()) - 1);
  if (axis < 0) axis += e.shape(x).size();
  std::string m = reduce(e, "ReduceMax", x, axis, "reducemax");
  std::string d = e.fresh(x, "sub");
  e.node("Sub", {x, m}, {d});
  std::string ex = e.fresh(x, "exp");
  e.node("Exp", {d}, {ex});
  std::string s = reduce(e, "ReduceSum", ex, axis, "reducesum");
  if (f.type == "Softmax") {
    e.node("Div", {ex, s}, {f.outputs.at(0)});
  } else {
    std::string l = e.fresh(x, "log");
    e.node("Log", {s}, {l});
    e.node("Sub", {d, l}, {f.outputs.at(0)});
  }
}

void emit_prelu(Emitter& e, const ir::Function& f) {
  const Shape& xs = e.shape(f.inputs.at(0));
  const std::string& slope = f.inputs.at(1);
  Shape ss = e.shape(slope);
  NN_CHECK(ss.size() == 1) << "slope must be 1-D, got " << ss;
  int64_t b = f.attrs.get_int("base_axis", 1);
  Shape dims(xs.size(), 1);  // [1, C, 1...] as upstream
  if (b < int64_t(xs.size())) dims[b] = ss[0];
  if (e.is_parameter(slope)) e.reshape_parameter(slope, dims);
  e.node("PRelu", {f.inputs[0], slope}, {f.outputs.at(0)}, e.node_name("PRelu"));
}

void emit_batch_matmul(Emitter& e, const ir::Function& f) {
  std::string ab[2] = {f.inputs.at(0), f.inputs.at(1)};
  const char* flags[2] = {"transpose_a", "transpose_b"};
  for (int i = 0; i < 2; ++i) {
    if (!f.attrs.get_bool(flags[i], false)) continue;
    size_t r = e.shape(ab[i]).size();
    std::vector<int64_t> perm(r);
    for (size_t j = 0; j < r; ++j) perm[j] = j;
    std::swap(perm[r - 1], perm[r - 2]);
    std::string t = e.fresh(ab[i], "transpose");
    set_attr(e.node("Transpose", {ab[i]}, {t}), "perm", perm);
    ab[i] = t;
  }
  e.node("MatMul", {ab[0], ab[1]}, {f.outputs.at(0)}, e.node_name("MatMul"));
}

}  // namespace

void add_layer_rules(std::vector<Rule>& rules) {
  for (const char* t : {"Affine", "BinaryConnectAffine", "BinaryWeightAffine"})
    rules.push_back({t, 6, emit_affine});
  for (const char* t : {"Convolution", "BinaryConnectConvolution", "DepthwiseConvolution", "Deconvolution",
                        "DepthwiseDeconvolution"})
    rules.push_back({t, 6, emit_conv});
  for (const char* t : {"MaxPooling", "AveragePooling"}) rules.push_back({t, 6, emit_pool});
  rules.push_back({"SumPooling", 7, emit_pool});
  rules.push_back({"GlobalAveragePooling", 6, emit_global_average});
  for (const char* t : {"BatchNormalization", "FusedBatchNormalization"}) rules.push_back({t, 6, emit_batch_norm});
  for (const char* t : {"Softmax", "LogSoftmax"}) rules.push_back({t, 6, emit_softmax});
  rules.push_back({"PReLU", 6, emit_prelu});
  rules.push_back({"BatchMatmul", 6, emit_batch_matmul});
}

}  // namespace nn::formats::onnx_export
