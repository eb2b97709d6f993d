// ONNX layer operators: Conv, ConvTranspose, BatchNormalization (also training_mode), InstanceNormalization, LRN,
// Dropout.
#include "formats/onnx/import/op_rules.hpp"
#include "formats/onnx/import/spatial_pads.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {

namespace {

std::vector<int64_t> spatial(const Shape& s, size_t from = 2) {
  return std::vector<int64_t>(s.begin() + long(from), s.end());
}

void import_conv(ImportContext& ctx, const NodeView& node) {
  std::string x = node.input(0);
  const std::string w = node.input(1), b = node.input(2);
  const Shape xs = ctx.shape(x), ws = ctx.shape(w);
  NN_CHECK(xs.size() >= 3 && ws.size() == xs.size())
      << "input " << to_string(xs) << " and weight " << to_string(ws) << " ranks do not fit a convolution";
  const size_t k = xs.size() - 2;
  const std::vector<int64_t> strides = node.get_ints("strides", std::vector<int64_t>(k, 1));
  const std::vector<int64_t> dilations = node.get_ints("dilations", std::vector<int64_t>(k, 1));
  std::vector<int64_t> effective(k);
  for (size_t i = 0; i < k; ++i) effective[i] = (ws[2 + i] - 1) * dilations[i] + 1;
  const SpatialPads pads = resolve_pads(node, spatial(xs), effective, strides);
  std::vector<int64_t> pad = pads.begin;
  if (!pads.symmetric()) {  // asymmetric: explicit Pad, zero pads in the convolution
    x = ctx.emit1("Pad", {x},
                  {{"pad_width", pads.pad_width()}, {"mode", std::string("constant")}, {"constant_value", 0.0}});
    pad.assign(k, 0);
  }
  std::vector<std::string> inputs{x, w};
  if (!b.empty()) inputs.push_back(b);
  ctx.emit1("Convolution", inputs,
            {{"base_axis", int64_t(1)},
             {"pad", pad},
             {"stride", strides},
             {"dilation", dilations},
             {"group", node.get_int("group", 1)},
             {"channel_last", false}},
            node.output(0));
}

void import_conv_transpose(ImportContext& ctx, const NodeView& node) {
  const std::string x = node.input(0), w = node.input(1), b = node.input(2);
  const Shape xs = ctx.shape(x), ws = ctx.shape(w);
  NN_CHECK(xs.size() >= 3 && ws.size() == xs.size()) << "input and weight ranks do not fit ConvTranspose";
  const size_t k = xs.size() - 2;
  const std::vector<int64_t> strides = node.get_ints("strides", std::vector<int64_t>(k, 1));
  const std::vector<int64_t> dilations = node.get_ints("dilations", std::vector<int64_t>(k, 1));
  std::vector<int64_t> out_pad = node.get_ints("output_padding", std::vector<int64_t>(k, 0));
  const std::vector<int64_t> output_shape = node.get_ints("output_shape");
  const std::string auto_pad = node.get_string("auto_pad", "NOTSET");
  std::vector<int64_t> full(k), begin(k, 0), target(k);
  for (size_t i = 0; i < k; ++i) full[i] = (xs[2 + i] - 1) * strides[i] + (ws[2 + i] - 1) * dilations[i] + 1;
  const std::vector<int64_t> pads = node.get_ints("pads", std::vector<int64_t>(2 * k, 0));
  for (size_t i = 0; i < k; ++i) {
    if (!output_shape.empty() || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      target[i] = !output_shape.empty() ? output_shape[output_shape.size() - k + i] : xs[2 + i] * strides[i];
      const int64_t total = full[i] + out_pad[i] - target[i];
      begin[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      if (total < 0) {  // the requested size exceeds the full output: extend with output padding
        out_pad[i] += -total;
        begin[i] = 0;
      }
    } else if (auto_pad == "VALID") {
      target[i] = full[i] + out_pad[i];
    } else {
      begin[i] = pads[i];
      target[i] = full[i] + out_pad[i] - pads[i] - pads[k + i];
    }
  }
  const bool symmetric_direct = output_shape.empty() && (auto_pad == "NOTSET" || auto_pad.empty()) &&
                                std::equal(pads.begin(), pads.begin() + long(k), pads.begin() + long(k));
  std::vector<std::string> inputs{x, w};
  if (!b.empty()) inputs.push_back(b);
  Attrs attrs{{"base_axis", int64_t(1)},
              {"stride", strides},
              {"dilation", dilations},
              {"group", node.get_int("group", 1)},
              {"channel_last", false}};
  if (symmetric_direct) {
    attrs.set("pad", std::vector<int64_t>(pads.begin(), pads.begin() + long(k)));
    attrs.set("output_padding", out_pad);
    ctx.emit1("Deconvolution", inputs, attrs, node.output(0));
    return;
  }
  attrs.set("pad", std::vector<int64_t>(k, 0));
  attrs.set("output_padding", out_pad);
  const std::string y = ctx.emit1("Deconvolution", inputs, attrs);
  const Shape ys = ctx.shape(y);
  std::vector<int64_t> start(ys.size(), 0), stop(ys.begin(), ys.end()), step(ys.size(), 1);
  for (size_t i = 0; i < k; ++i) {
    start[2 + i] = begin[i];
    stop[2 + i] = begin[i] + target[i];
  }
  ctx.emit1("Slice", {y}, {{"start", start}, {"stop", stop}, {"step", step}}, node.output(0));
}

// training_mode=1 (opset 14+): batch statistics over every axis but the channel, and the updated running
// statistics input * momentum + batch * (1 - momentum) as outputs 1 and 2.
void batch_norm_training(ImportContext& ctx, const NodeView& node, const Shape& param_shape) {
  const std::string x = node.input(0);
  const Shape xs = ctx.shape(x);
  std::vector<int64_t> axes;
  for (int64_t i = 0; i < int64_t(xs.size()); ++i)
    if (i != 1) axes.push_back(i);
  const Attrs reduce{{"axes", axes}, {"keep_dims", true}};
  const std::string mean = ctx.emit1("Mean", {x}, reduce);
  const std::string centred = ctx.emit1("Sub2", {x, broadcast_to(ctx, mean, xs)});
  const std::string var = ctx.emit1("Mean", {ctx.emit1("Mul2", {centred, centred})}, reduce);
  const double eps = node.get_float("epsilon", 1e-5f), momentum = node.get_float("momentum", 0.9f);
  const std::string inv = ctx.emit1("PowScalar", {ctx.emit1("AddScalar", {var}, {{"val", eps}})}, {{"val", -0.5}});
  std::string y = ctx.emit1("Mul2", {centred, broadcast_to(ctx, inv, xs)});
  y = ctx.emit1("Mul2", {y, broadcast_to(ctx, reshape_to(ctx, node.input(1), param_shape), xs)});
  ctx.emit1("Add2", {y, broadcast_to(ctx, reshape_to(ctx, node.input(2), param_shape), xs)}, {}, node.output(0));
  const Shape running = ctx.shape(node.input(3));
  for (size_t k = 1; k <= 2; ++k) {
    if (node.output(k).empty()) continue;
    const std::string old = ctx.emit1("MulScalar", {node.input(2 + k)}, {{"val", momentum}});
    const std::string cur =
        ctx.emit1("MulScalar", {reshape_to(ctx, k == 1 ? mean : var, running)}, {{"val", 1.0 - momentum}});
    ctx.emit1("Add2", {old, cur}, {}, node.output(k));
  }
}

void import_batch_norm(ImportContext& ctx, const NodeView& node) {
  const Shape xs = ctx.shape(node.input(0));
  if (node.get_int("training_mode", 0) != 0) {
    NN_CHECK(xs.size() >= 2) << "BatchNormalization input " << to_string(xs) << " needs a channel axis";
    Shape param_shape(xs.size(), 1);
    param_shape[1] = xs[1];
    batch_norm_training(ctx, node, param_shape);
    return;
  }
  NN_CHECK(xs.size() >= 2) << "BatchNormalization input " << to_string(xs) << " needs a channel axis";
  Shape param_shape(xs.size(), 1);
  param_shape[1] = xs[1];
  auto param = [&](size_t i) { return reshape_to(ctx, node.input(i), param_shape); };
  const double eps = node.get_float("epsilon", 1e-5f);
  const double momentum = node.get_float("momentum", 0.9f);
  ctx.emit1("BatchNormalization", {node.input(0), param(2), param(1), param(3), param(4)},
            {{"axes", std::vector<int64_t>{1}}, {"decay_rate", momentum}, {"eps", eps}, {"batch_stat", false}},
            node.output(0));
}

void import_instance_norm(ImportContext& ctx, const NodeView& node) {
  const std::string x = node.input(0);
  const Shape xs = ctx.shape(x);
  NN_CHECK(xs.size() >= 3) << "InstanceNormalization input " << to_string(xs) << " needs spatial axes";
  std::vector<int64_t> axes;
  for (int64_t a = 2; a < int64_t(xs.size()); ++a) axes.push_back(a);
  Shape param_shape(xs.size(), 1);
  param_shape[1] = xs[1];
  const Attrs reduce{{"axes", axes}, {"keep_dims", true}};
  const std::string mean = ctx.emit1("Mean", {x}, reduce);
  const std::string centered = ctx.emit1("Sub2", {x, mean});
  const std::string var = ctx.emit1("Mean", {ctx.emit1("PowScalar", {centered}, {{"val", 2.0}})}, reduce);
  std::string denom = ctx.emit1("AddScalar", {var}, {{"val", double(node.get_float("epsilon", 1e-5f))}});
  denom = ctx.emit1("PowScalar", {denom}, {{"val", 0.5}});
  const std::string normed = ctx.emit1("Div2", {centered, denom});
  const std::string scaled = ctx.emit1("Mul2", {normed, reshape_to(ctx, node.input(1), param_shape)});
  ctx.emit1("Add2", {scaled, reshape_to(ctx, node.input(2), param_shape)}, {}, node.output(0));
}

void import_lrn(ImportContext& ctx, const NodeView& node) {
  const std::string x = node.input(0);
  const Shape xs = ctx.shape(x);
  NN_CHECK(xs.size() >= 3) << "LRN input " << to_string(xs) << " needs a channel axis and spatial axes";
  const int64_t size = node.get_int("size", 1);
  const double alpha = node.get_float("alpha", 1e-4f), beta = node.get_float("beta", 0.75f);
  const double bias = node.get_float("bias", 1.0f);
  const int64_t lo = (size - 1) / 2, hi = size - 1 - lo;
  int64_t rest = 1;
  for (size_t i = 2; i < xs.size(); ++i) rest *= xs[i];
  const std::string sq = ctx.emit1("PowScalar", {x}, {{"val", 2.0}});
  const std::string flat = reshape_to(ctx, sq, {xs[0], 1, xs[1], rest});
  const std::string padded = ctx.emit1("Pad", {flat},
                                       {{"pad_width", std::vector<int64_t>{lo, hi, 0, 0}},
                                        {"mode", std::string("constant")},
                                        {"constant_value", 0.0}});
  const std::string summed = ctx.emit1("SumPooling", {padded},
                                       {{"kernel", std::vector<int64_t>{size, 1}},
                                        {"stride", std::vector<int64_t>{1, 1}},
                                        {"ignore_border", true},
                                        {"pad", std::vector<int64_t>{0, 0}},
                                        {"channel_last", false}});
  std::string denom = reshape_to(ctx, summed, xs);
  denom = ctx.emit1("MulScalar", {denom}, {{"val", alpha / double(size)}});
  denom = ctx.emit1("AddScalar", {denom}, {{"val", bias}});
  denom = ctx.emit1("PowScalar", {denom}, {{"val", beta}});
  ctx.emit1("Div2", {x, denom}, {}, node.output(0));
}

void import_dropout(ImportContext& ctx, const NodeView& node) {
  const std::string training = node.input(2);
  const bool training_on = !training.empty() && ctx.const_values(training).at(0) != 0.0f;
  NN_CHECK_CODE(!training_on || (!node.input(1).empty() && ctx.is_constant(node.input(1)) &&
                                 ctx.const_values(node.input(1)).at(0) == 0.0f),
                ErrorCode::kUnsupported)
      << "Dropout with training_mode=true is not supported (random) unless its ratio is 0";
  // nnabla: Identity for opset >= 7 or is_test, else Dropout(p = ratio) (the identity at inference).
  if (ctx.opset() < 7 && node.get_int("is_test", 0) == 0)
    ctx.emit1("Dropout", {node.input(0)}, {{"p", double(node.get_float("ratio", 0.5f))}}, node.output(0));
  else
    ctx.emit1("Identity", {node.input(0)}, {}, node.output(0));
  if (!node.output(1).empty()) {
    const std::string mask = filled_constant(ctx, ctx.shape(node.input(0)), 1.0f);
    ctx.alias(node.output(1), mask);
  }
}

}  // namespace

void add_nn_rules(std::vector<OpRule>& rules) {
  rules.push_back({"Conv", 1, 17, import_conv});
  rules.push_back({"ConvTranspose", 1, 17, import_conv_transpose});
  rules.push_back({"BatchNormalization", 1, 17, import_batch_norm});
  rules.push_back({"InstanceNormalization", 1, 17, import_instance_norm});
  rules.push_back({"LRN", 1, 17, import_lrn});
  rules.push_back({"Dropout", 1, 17, import_dropout});
}

}  // namespace nn::formats::onnx
