// ONNX resampling import. Resize / Upsample: nearest upsampling by integer factors as nnabla Unpooling, the
// nearest/linear resizes nnabla's Interpolate reproduces as Interpolate, every other mode (cubic, roi,
// tf_crop_and_resize, fractional scales) as ONNXResize. GridSample as WarpByGrid, RoiAlign as RoiAlign.
#include <cmath>

#include "formats/onnx/import/op_rules.hpp"

namespace nn::formats::onnx {
namespace {

// Integer factors per axis from `scales` (or from `sizes` over the input shape); throws for fractions.
std::vector<int64_t> integer_factors(const std::vector<float>& scales, const std::vector<int64_t>& sizes,
                                     const Shape& in) {
  std::vector<int64_t> factors;
  for (size_t i = 0; i < in.size(); ++i) {
    double f = !sizes.empty() ? double(sizes.at(i)) / double(in[i]) : double(scales.at(i));
    NN_CHECK_CODE(f >= 1 && std::fabs(f - std::round(f)) < 1e-6, ErrorCode::kUnsupported)
        << "scale " << f << " on axis " << i << ": only integer upsampling factors are supported";
    factors.push_back(int64_t(std::round(f)));
  }
  return factors;
}

void emit_unpooling(ImportContext& ctx, const NodeView& node, const std::vector<int64_t>& factors) {
  size_t first = 0;
  while (first < factors.size() && factors[first] == 1) ++first;
  if (first == factors.size()) {
    ctx.emit1("Identity", {node.input(0)}, {}, node.output(0));
    return;
  }
  std::vector<int64_t> kernel(factors.begin() + long(first), factors.end());
  ctx.emit1("Unpooling", {node.input(0)}, {{"kernel", kernel}, {"channel_last", false}}, node.output(0));
}

// Coordinate modes under which integer nearest upsampling repeats every element `factor` times.
void check_nearest_repeats(const NodeView& node) {
  const std::string mode = node.get_string("mode", "nearest");
  NN_CHECK_CODE(mode == "nearest", ErrorCode::kUnsupported)
      << "mode '" << mode << "' is not supported (only nearest)";
  const std::string transform = node.get_string("coordinate_transformation_mode", "half_pixel");
  const std::string rounding = node.get_string("nearest_mode", "round_prefer_floor");
  const bool asymmetric_floor = transform == "asymmetric" && rounding == "floor";
  const bool centred = (transform == "half_pixel" || transform == "pytorch_half_pixel") &&
                       (rounding == "round_prefer_floor" || rounding == "round_prefer_ceil");
  NN_CHECK_CODE(asymmetric_floor || centred, ErrorCode::kUnsupported)
      << "coordinate_transformation_mode '" << transform << "' with nearest_mode '" << rounding
      << "' is not supported";
}

// Whether integer nearest upsampling (Unpooling) gives this node's values.
bool nearest_repeats(const NodeView& node) {
  try {
    check_nearest_repeats(node);
    return true;
  } catch (const Error&) {
    return false;
  }
}

// Interpolate flags for a coordinate_transformation_mode (mode linear, or nearest with its nearest_mode).
// nnabla maps output o to s*o (asymmetric), s*(o+0.5)-0.5 clamped at 0 (half_pixel), (in-1)/(out-1)*o
// (align_corners) or s*(o+0.5) floored (half_pixel_for_nn), with s = in/out; `exact_scales`: the scales
// are out/in (ONNX uses the given scale, nnabla in/out).
Attrs interpolate_flags(const std::string& mode, const std::string& transform, const std::string& rounding,
                        bool exact_scales, bool one_output) {
  const std::string what = "mode '" + mode + "' with coordinate_transformation_mode '" + transform + "'" +
                           (mode == "nearest" ? " and nearest_mode '" + rounding + "'" : "");
  bool align = false, half_pixel = false, half_pixel_nn = false, supported = false;
  if (transform == "align_corners") {
    align = supported = (mode == "linear" || rounding == "floor") && !one_output;
  } else if (mode == "linear") {
    half_pixel = transform == "half_pixel" || (transform == "pytorch_half_pixel" && !one_output);
    supported = half_pixel || transform == "asymmetric";
  } else if (transform == "asymmetric") {
    supported = rounding == "floor";
  } else if (transform == "tf_half_pixel_for_nn") {
    half_pixel_nn = supported = rounding == "floor";
  } else if (transform == "half_pixel" || (transform == "pytorch_half_pixel" && !one_output)) {
    half_pixel_nn = supported = rounding == "round_prefer_ceil";  // round(s*(o+0.5)-0.5) up == floor(s*(o+0.5))
  }
  NN_CHECK_CODE(supported, ErrorCode::kUnsupported) << what << " is not supported";
  NN_CHECK_CODE(exact_scales, ErrorCode::kUnsupported)
      << what << ": scales that are not output/input sizes are not supported";
  return {{"mode", mode},
          {"align_corners", align},
          {"half_pixel", half_pixel},
          {"half_pixel_for_nn", half_pixel_nn},
          {"channel_last", false}};
}

// Resize of the trailing axes from the first resized one (at most 3) as Interpolate.
void emit_interpolate(ImportContext& ctx, const NodeView& node, const std::string& mode,
                      const std::string& transform, const std::string& rounding, const std::vector<float>& scales,
                      const std::vector<int64_t>& sizes) {
  const Shape& in = ctx.shape(node.input(0));
  Shape out(in.size());
  bool exact = true, one_output = false;
  size_t first = in.size();
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = !sizes.empty() ? sizes[i] : int64_t(std::floor(double(in[i]) * double(scales[i])));
    if (sizes.empty() && std::fabs(double(scales[i]) * double(in[i]) - double(out[i])) > 1e-5) exact = false;
    if (out[i] != in[i] && first == in.size()) first = i;
  }
  if (first == in.size()) {
    ctx.emit1("Identity", {node.input(0)}, {}, node.output(0));
    return;
  }
  NN_CHECK_CODE(in.size() - first <= 3, ErrorCode::kUnsupported)
      << "resizing " << in.size() - first << " trailing axes is not supported (at most 3)";
  for (size_t i = first; i < in.size(); ++i) one_output = one_output || (out[i] == 1 && in[i] != 1);
  Attrs attrs = interpolate_flags(mode, transform, rounding, exact, one_output);
  attrs.set("output_size", std::vector<int64_t>(out.begin() + long(first), out.end()));
  ctx.emit1("Interpolate", {node.input(0)}, attrs, node.output(0));
}

// Whether Interpolate/Unpooling reproduce this node (else ONNXResize): nearest or linear, no roi cropping,
// antialias off, and a coordinate mode they know (checked by emit_interpolate, which throws kUnsupported).
bool simple_resize(const NodeView& node, const std::string& mode, const std::string& transform) {
  return (mode == "nearest" || mode == "linear") && transform != "tf_crop_and_resize" &&
         node.get_int("exclude_outside", 0) == 0;
}

void emit_onnx_resize(ImportContext& ctx, const NodeView& node, const std::string& mode,
                      const std::string& transform, const std::string& rounding, const std::vector<float>& scales,
                      const std::vector<int64_t>& sizes) {
  std::vector<double> roi, scale_values(scales.begin(), scales.end());
  if (ctx.opset() >= 11 && !node.input(1).empty())
    for (float v : ctx.const_values(node.input(1))) roi.push_back(v);
  ctx.emit1("ONNXResize", {node.input(0)},
            {{"roi", roi},
             {"scales", sizes.empty() ? scale_values : std::vector<double>{}},
             {"sizes", sizes},
             {"mode", mode},
             {"coordinate_transformation_mode", transform},
             {"cubic_coeff_a", double(node.get_float("cubic_coeff_a", -0.75f))},
             {"exclude_outside", node.get_int("exclude_outside", 0)},
             {"extrapolation_value", double(node.get_float("extrapolation_value", 0.0f))},
             {"nearest_mode", rounding}},
            node.output(0));
}

// Resize to sizes computed from the data: ONNXResizeTo reads them when it runs.
void import_resize_to(ImportContext& ctx, const NodeView& node, const std::string& mode) {
  NN_CHECK_CODE(node.input(1).empty() || ctx.const_values(node.input(1)).empty(), ErrorCode::kUnsupported)
      << "roi with sizes computed from the data is not supported";
  ctx.emit1("ONNXResizeTo", {node.input(0), node.input(3)},
            {{"mode", mode},
             {"coordinate_transformation_mode", node.get_string("coordinate_transformation_mode", "half_pixel")},
             {"cubic_coeff_a", double(node.get_float("cubic_coeff_a", -0.75f))},
             {"exclude_outside", node.get_int("exclude_outside", 0)},
             {"extrapolation_value", double(node.get_float("extrapolation_value", 0.0f))},
             {"nearest_mode", node.get_string("nearest_mode", "round_prefer_floor")}},
            node.output(0));
}

void import_resize(ImportContext& ctx, const NodeView& node) {
  const std::string mode = node.get_string("mode", "nearest");
  NN_CHECK_CODE(mode == "nearest" || mode == "linear" || mode == "cubic", ErrorCode::kUnsupported)
      << "mode '" << mode << "' is not supported (nearest, linear, cubic)";
  NN_CHECK_CODE(node.get_int("antialias", 0) == 0, ErrorCode::kUnsupported) << "antialias=1 is not supported";
  const Shape& in = ctx.shape(node.input(0));
  // Resize-10: (X, scales), asymmetric with floor; 11+: (X, roi, scales[, sizes]).
  const size_t scales_index = ctx.opset() < 11 ? 1 : 2;
  std::vector<float> scales;
  std::vector<int64_t> sizes;
  if (!node.input(scales_index).empty() && !ctx.const_values(node.input(scales_index)).empty())
    scales = ctx.const_values(node.input(scales_index));
  if (node.num_inputs() > 3 && !node.input(3).empty() && !ctx.has_values(node.input(3)))
    return import_resize_to(ctx, node, mode);  // sizes computed from the data
  if (node.num_inputs() > 3 && !node.input(3).empty()) sizes = ctx.const_ints(node.input(3));
  NN_CHECK(!scales.empty() || !sizes.empty()) << "neither scales nor sizes is given";
  NN_CHECK((sizes.empty() ? scales.size() : sizes.size()) == in.size())
      << "scales/sizes must have one value per input axis (" << in.size() << ")";
  NN_CHECK_CODE(node.get_ints("axes").empty(), ErrorCode::kUnsupported) << "the axes attribute is not supported";
  const std::string transform =
      ctx.opset() < 11 ? "asymmetric" : node.get_string("coordinate_transformation_mode", "half_pixel");
  const std::string rounding = ctx.opset() < 11 ? "floor" : node.get_string("nearest_mode", "round_prefer_floor");
  // With scales, ONNX's reference divides by the unrounded output length in*scale, ONNX Runtime by the
  // rounded one: refuse the case where they differ rather than pick one.
  if (transform == "align_corners" && sizes.empty()) {
    for (size_t i = 0; i < in.size(); ++i) {
      NN_CHECK_CODE(std::fabs(double(in[i]) * scales[i] - std::round(double(in[i]) * scales[i])) < 1e-4,
                    ErrorCode::kUnsupported)
          << "align_corners with scale " << scales[i] << " on axis " << i
          << " gives a fractional output length; give sizes instead";
    }
  }
  if (simple_resize(node, mode, transform)) {
    if (mode == "nearest" && (ctx.opset() < 11 || nearest_repeats(node))) {
      try {
        emit_unpooling(ctx, node, integer_factors(scales, sizes, in));
        return;
      } catch (const Error&) {  // not whole-number factors: Interpolate below
      }
    }
    try {
      emit_interpolate(ctx, node, mode, transform, rounding, scales, sizes);
      return;
    } catch (const Error& e) {
      if (e.code() != ErrorCode::kUnsupported) throw;
    }
  }
  emit_onnx_resize(ctx, node, mode, transform, rounding, scales, sizes);
}

// Upsample-7 (scales attribute) and Upsample-9 (scales input): asymmetric, floor.
void import_upsample(ImportContext& ctx, const NodeView& node) {
  const std::string mode = node.get_string("mode", "nearest");
  NN_CHECK_CODE(mode == "nearest" || mode == "linear", ErrorCode::kUnsupported)
      << "mode '" << mode << "' is not supported (nearest, linear)";
  const Shape& in = ctx.shape(node.input(0));
  std::vector<float> scales = ctx.opset() < 9 ? node.get_floats("scales") : ctx.const_values(node.input(1));
  NN_CHECK(scales.size() == in.size()) << "scales must have one value per input axis (" << in.size() << ")";
  if (mode == "nearest") {
    emit_unpooling(ctx, node, integer_factors(scales, {}, in));
  } else {
    emit_interpolate(ctx, node, mode, "asymmetric", "floor", scales, {});
  }
}

void import_grid_sample(ImportContext& ctx, const NodeView& node) {
  const std::string mode = node.get_string("mode", "bilinear");
  const std::string padding = node.get_string("padding_mode", "zeros");
  // nearest: ONNX rounds halves to even, WarpByGrid away from zero.
  NN_CHECK_CODE(mode == "bilinear", ErrorCode::kUnsupported)
      << "mode '" << mode << "' is not supported (bilinear)";
  NN_CHECK(padding == "zeros" || padding == "border" || padding == "reflection")
      << "padding_mode '" << padding << "' is not zeros, border or reflection";
  NN_CHECK(ctx.rank(node.input(0)) == 4 && ctx.rank(node.input(1)) == 4)
      << "GridSample needs X (N, C, H, W) and grid (N, H_out, W_out, 2)";
  ctx.emit1("WarpByGrid", {node.input(0), node.input(1)},
            {{"mode", std::string("linear")},
             {"padding_mode", std::string(padding == "zeros"    ? "zero"
                                          : padding == "border" ? "repeat"
                                                                : "reflect")},
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
  ctx.emit1(
      "RoiAlign", {node.input(0), boxes},
      {{"output_size", std::vector<int64_t>{node.get_int("output_height", 1), node.get_int("output_width", 1)}},
       {"spatial_scale", std::vector<double>{scale, scale}},
       {"sampling_ratio", ratio > 0 ? ratio : int64_t(-1)},
       {"channel_last", false}},
      node.output(0));
}

}  // namespace

void add_resize_rules(std::vector<OpRule>& rules) {
  rules.push_back({"Resize", 10, 17, import_resize});
  rules.push_back({"Upsample", 7, 9, import_upsample});
  rules.push_back({"GridSample", 16, 17, import_grid_sample});
  rules.push_back({"RoiAlign", 10, 17, import_roi_align});
}

}  // namespace nn::formats::onnx
