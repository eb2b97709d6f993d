// TFLite import rule for LEAKY_RELU, int8 as LiteRT computes it.
#include <cmath>

#include "formats/tflite/tflite_graph.hpp"
#include "formats/tflite/tflite_importer.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::tflite_import {
namespace {

// int8 LEAKY_RELU as TFLite runs it through XNNPACK (its default CPU delegate): each branch's scale ratio is
// rounded to a multiple of 1/256 (lrintf), and the product rounds half up: y = floor(d * M / 256 + 1/2) + zp_out,
// d = x - zp_in. With alpha 0.1 and a ratio near 0.7 the negative branch is off by up to 2.8 %, compounding
// through a network of such layers. Ratios XNNPACK refuses fall back to TFLite's kernel (exact multipliers),
// as does every other type: the float LeakyReLU rounded to the output grid.
void leaky_relu(Importer& im, const tflite::OperatorT& op) {
  const auto* o = op.builtin_options.AsLeakyReluOptions();
  const float alpha = o ? o->alpha : 0.2f;
  const int x = op.inputs.at(0), y = op.outputs.at(0);
  const bool int8 = im.is_quantized(x) && im.is_quantized(y) && im.tensor(x).type == tflite::TensorType_INT8 &&
                    im.tensor(y).type == tflite::TensorType_INT8;
  const float in_scale = int8 ? im.tensor(x).quantization->scale[0] : 1.0f;
  const float out_scale = int8 ? im.tensor(y).quantization->scale[0] : 1.0f;
  const float positive = in_scale / out_scale, negative = positive * alpha;
  const bool xnnpack = int8 && positive >= 0x1.0p-8f && positive <= 0x1.0p+7f && negative >= -0x1.FFFC00p+6f &&
                       negative <= 0x1.0p+7f && std::fabs(negative) >= 0x1.0p-8f;
  const Shape s = im.shape(y);
  auto step = [&](const std::string& from, const std::string& type, Attrs attrs) {
    std::string out = im.temp(im.op_name() + "/" + type, s);
    im.fn(type, {from}, {out}, std::move(attrs));
    return out;
  };
  const std::string v = im.var(x);
  if (!xnnpack) return im.finish(step(v, "LeakyReLU", {{"alpha", double(alpha)}}), y);
  // x is dequantized: (x - zp_in) * scale; the integer d comes back exactly.
  const std::string d = step(step(v, "MulScalar", {{"val", 1.0 / double(in_scale)}}), "Round", {});
  const double pm = double(std::lrint(256.0f * positive)) / 256.0,
               nm = double(std::lrint(256.0f * negative)) / 256.0;
  const std::string p = step(step(d, "MaximumScalar", {{"val", 0.0}}), "MulScalar", {{"val", pm}});
  const std::string n = step(step(d, "MinimumScalar", {{"val", 0.0}}), "MulScalar", {{"val", nm}});
  std::string sum = im.temp(im.op_name() + "/Add2", s);
  im.fn("Add2", {p, n}, {sum});
  const std::string q = step(step(sum, "AddScalar", {{"val", 0.5}}), "Floor", {});
  im.finish(step(q, "MulScalar", {{"val", double(out_scale)}}), y);
}

}  // namespace

void add_leaky_relu_rule(std::map<int32_t, Rule>& rules) {
  rules[int32_t(tflite_io::BuiltinOp::LEAKY_RELU)] = leaky_relu;
}

}  // namespace nn::formats::tflite_import
