// ONNX Einsum, CastLike (and Cast to FLOAT16), BitShift, Det, GridSample, RoiAlign, window generators (Hann, Hamming, Blackman).
#include <cmath>

#include "formats/onnx/common/onnx_model_file.hpp"
#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {
namespace {

void import_einsum(ImportContext& ctx, const NodeView& node) {
  std::vector<std::string> inputs;
  for (size_t i = 0; i < node.num_inputs(); ++i) inputs.push_back(node.input(i));
  std::string equation;
  for (char c : node.get_string("equation", ""))
    if (c != ' ') equation += c;
  NN_CHECK(!equation.empty()) << "Einsum needs an equation";
  ctx.emit1("Einsum", inputs, {{"equation", equation}}, node.output(0));
  ctx.set_data_type(node.output(0), ctx.data_type(node.input(0)));
}

}  // namespace

std::string round_to_half(ImportContext& ctx, const std::string& x, const std::string& output) {
  // Normal range: Veltkamp's split keeps the 11 leading significant bits, rounded to nearest (x * 8193 and
  // the two subtractions are exact float32 operations, each its own function).
  const std::string t = ctx.emit1("MulScalar", {x}, {{"val", 8193.0}});
  const std::string hi = ctx.emit1("Sub2", {t, ctx.emit1("Sub2", {t, x})});
  const std::string clamped = ctx.emit1("MinimumScalar", {ctx.emit1("MaximumScalar", {hi}, {{"val", -65504.0}})},
                                        {{"val", 65504.0}});
  // Subnormal range (|x| < 2^-14): multiples of 2^-24, by adding and removing 0.75 (whose ulp is 2^-24).
  const std::string sub = ctx.emit1("AddScalar", {ctx.emit1("AddScalar", {x}, {{"val", 0.75}})}, {{"val", -0.75}});
  const std::string a = ctx.emit1("Abs", {x});
  const std::string overflow = ctx.emit1("GreaterEqualScalar", {a}, {{"val", 65520.0}});
  const std::string infinity = ctx.emit1("MulScalar", {ctx.emit1("Sign", {x})}, {{"val", double(INFINITY)}});
  const std::string normal = ctx.emit1("Where", {overflow, infinity, clamped});
  return ctx.emit1("Where", {ctx.emit1("LessScalar", {a}, {{"val", 6.103515625e-05}}), sub, normal}, {}, output);
}

namespace {

// CastLike: Cast to the type of the second input (values stay float, as Cast's import).
void import_cast_like(ImportContext& ctx, const NodeView& node) {
  const int32_t from = ctx.data_type(node.input(0)), to = ctx.data_type(node.input(1));
  const bool to_half = to == ::onnx::TensorProto::FLOAT16 &&
                       (from == ::onnx::TensorProto::FLOAT || from == ::onnx::TensorProto::DOUBLE);
  NN_CHECK_CODE(to_half || cast_keeps_values(from, to), ErrorCode::kUnsupported)
        << "CastLike from " << data_type_name(from) << " to " << data_type_name(to)
        << " changes the precision; not supported";
  const bool to_int = to != ::onnx::TensorProto::FLOAT && to != ::onnx::TensorProto::DOUBLE;
  const bool from_float = from == ::onnx::TensorProto::FLOAT || from == ::onnx::TensorProto::DOUBLE;
  if (to == ::onnx::TensorProto::FLOAT16 && from_float) {
    round_to_half(ctx, node.input(0), node.output(0));
  } else if (to_int && from_float) {  // float -> integer truncates toward zero
    const std::string x = node.input(0);
    ctx.emit1("Mul2", {ctx.emit1("Sign", {x}), ctx.emit1("Floor", {ctx.emit1("Abs", {x})})}, {}, node.output(0));
  } else {
    ctx.emit1("Identity", {node.input(0)}, {}, node.output(0));
  }
  ctx.set_data_type(node.output(0), to);
}

void import_bit_shift(ImportContext& ctx, const NodeView& node) {
  const std::string direction = node.get_string("direction", "");
  NN_CHECK(direction == "LEFT" || direction == "RIGHT") << "direction '" << direction << "' is not LEFT or RIGHT";
  const Shape out = broadcast_shapes(ctx.shape(node.input(0)), ctx.shape(node.input(1)));
  ctx.emit1("BitShift", {broadcast_to(ctx, node.input(0), out), broadcast_to(ctx, node.input(1), out)},
            {{"direction", direction}}, node.output(0));
  ctx.set_data_type(node.output(0), ctx.data_type(node.input(0)));
}

// Det of (..., M, M) as BatchDet on (prod(...), M, M).
void import_det(ImportContext& ctx, const NodeView& node) {
  const Shape xs = ctx.shape(node.input(0));
  NN_CHECK(xs.size() >= 2 && xs[xs.size() - 1] == xs[xs.size() - 2])
      << "Det needs square matrices (..., M, M), got " << to_string(xs);
  const int64_t m = xs.back();
  const Shape batch(xs.begin(), xs.end() - 2);
  const std::string x = reshape_to(ctx, node.input(0), {shape_size(batch), m, m});
  reshape_to(ctx, ctx.emit1("BatchDet", {x}), batch, node.output(0));
}

void import_grid_sample(ImportContext& ctx, const NodeView& node) {
  const std::string mode = node.get_string("mode", "bilinear");
  const std::string padding = node.get_string("padding_mode", "zeros");
  // nearest: ONNX rounds halves to even, WarpByGrid away from zero.
  NN_CHECK_CODE(mode == "bilinear", ErrorCode::kUnsupported) << "mode '" << mode << "' is not supported (bilinear)";
  NN_CHECK(padding == "zeros" || padding == "border" || padding == "reflection")
      << "padding_mode '" << padding << "' is not zeros, border or reflection";
  NN_CHECK(ctx.rank(node.input(0)) == 4 && ctx.rank(node.input(1)) == 4)
      << "GridSample needs X (N, C, H, W) and grid (N, H_out, W_out, 2)";
  ctx.emit1("WarpByGrid", {node.input(0), node.input(1)},
            {{"mode", std::string("linear")},
             {"padding_mode", std::string(padding == "zeros" ? "zero" : padding == "border" ? "repeat" : "reflect")},
             {"align_corners", node.get_int("align_corners", 0) != 0},
             {"channel_last", false}},
            node.output(0));
}

// RoiAlign (avg) as nnabla's RoiAlign, whose boxes (K, 5) lead with the batch index and which samples like
// output_half_pixel; half_pixel (opset 16's default) shifts the boxes by -0.5 / spatial_scale first.
void import_roi_align(ImportContext& ctx, const NodeView& node) {
  const std::string mode = node.get_string("mode", "avg");
  NN_CHECK_CODE(mode == "avg", ErrorCode::kUnsupported) << "mode '" << mode << "' is not supported (avg)";
  const std::string transform =
      ctx.opset() < 16 ? "output_half_pixel" : node.get_string("coordinate_transformation_mode", "half_pixel");
  NN_CHECK(transform == "half_pixel" || transform == "output_half_pixel")
      << "coordinate_transformation_mode '" << transform << "' is not half_pixel or output_half_pixel";
  const Shape rs = ctx.shape(node.input(1));
  NN_CHECK(rs.size() == 2 && rs[1] == 4 && ctx.shape(node.input(2)) == Shape({rs[0]}))
      << "rois " << to_string(rs) << " and batch_indices " << to_string(ctx.shape(node.input(2)))
      << " must be (K, 4) and (K)";
  const double scale = node.get_float("spatial_scale", 1.0f);
  NN_CHECK(scale > 0) << "spatial_scale " << scale << " must be positive";
  std::string rois = node.input(1);
  if (transform == "half_pixel") rois = ctx.emit1("AddScalar", {rois}, {{"val", -0.5 / scale}});
  const std::string boxes =
      ctx.emit1("Concatenate", {reshape_to(ctx, node.input(2), {rs[0], 1}), rois}, {{"axis", int64_t(1)}});
  const int64_t ratio = node.get_int("sampling_ratio", 0);
  ctx.emit1("RoiAlign", {node.input(0), boxes},
            {{"output_size", std::vector<int64_t>{node.get_int("output_height", 1), node.get_int("output_width", 1)}},
             {"spatial_scale", std::vector<double>{scale, scale}},
             {"sampling_ratio", ratio > 0 ? ratio : int64_t(-1)},
             {"channel_last", false}},
            node.output(0));
}

// Window generators: a constant of `size` samples (periodic: the denominator is size, else size - 1).
void window(ImportContext& ctx, const NodeView& node, const std::vector<double>& cosines) {
  const std::vector<int64_t> size = ctx.const_ints(node.input(0));
  NN_CHECK(size.size() == 1 && size[0] >= 0) << "size must be one non-negative value";
  const int64_t n = size[0];
  const double denom = node.get_int("periodic", 1) != 0 ? double(n) : double(n - 1);
  std::vector<float> v(static_cast<size_t>(n), 0.0f);
  const double pi = std::acos(-1.0);
  for (int64_t i = 0; i < n; ++i) {
    double w = 0;
    for (size_t k = 0; k < cosines.size(); ++k)
      w += cosines[k] * (denom > 0 ? std::cos(2.0 * pi * double(k) * double(i) / denom) : 1.0);
    v[size_t(i)] = float(w);
  }
  ctx.add_constant(node.output(0), {n}, v, {}, int32_t(node.get_int("output_datatype", ::onnx::TensorProto::FLOAT)));
}

}  // namespace

void add_misc_rules(std::vector<OpRule>& rules) {
  rules.push_back({"Einsum", 12, 17, import_einsum});
  rules.push_back({"CastLike", 15, 17, import_cast_like});
  rules.push_back({"BitShift", 11, 17, import_bit_shift});
  rules.push_back({"Det", 11, 17, import_det});
  rules.push_back({"GridSample", 16, 17, import_grid_sample});
  rules.push_back({"RoiAlign", 10, 17, import_roi_align});
  rules.push_back({"HannWindow", 17, 17, [](ImportContext& c, const NodeView& n) { window(c, n, {0.5, -0.5}); }});
  rules.push_back({"HammingWindow", 17, 17, [](ImportContext& c, const NodeView& n) {
                     window(c, n, {25.0 / 46.0, -(1.0 - 25.0 / 46.0)});
                   }});
  rules.push_back({"BlackmanWindow", 17, 17, [](ImportContext& c, const NodeView& n) { window(c, n, {0.42, -0.5, 0.08}); }});
}

}  // namespace nn::formats::onnx
