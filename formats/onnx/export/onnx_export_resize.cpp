// ONNX export rule for Interpolate: [Reshape to 4-D/5-D] Resize(X, roi, scales, sizes) [Reshape back].
#include "formats/onnx/export/onnx_emitter.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx_export {
namespace {

// nnabla's coordinate flags as Resize's coordinate_transformation_mode (the mapping upstream uses).
std::string coordinate_mode(const ir::Function& f, bool nearest) {
  const bool align = f.attrs.get_bool("align_corners", true);
  const bool half_pixel = f.attrs.get_bool("half_pixel", false);
  NN_CHECK(!(align && half_pixel)) << "align_corners and half_pixel cannot both be true";
  if (nearest && f.attrs.get_bool("half_pixel_for_nn", false)) return "tf_half_pixel_for_nn";
  if (align) return "align_corners";
  if (half_pixel) return "pytorch_half_pixel";
  return "asymmetric";
}

// Input shape Resize sees: the dims before the resized ones folded to (first, rest), the resized dims padded
// with leading 1s to two (ONNX Runtime's linear Resize wants 4-D or 5-D).
Shape resize_view(const Shape& xs, size_t spatial) {
  Shape lead(xs.begin(), xs.end() - long(spatial));
  Shape view;
  if (lead.size() >= 2) {
    view = {lead[0], shape_size(lead, 1, lead.size())};
  } else {
    view = {lead.empty() ? 1 : lead[0], 1};
  }
  for (size_t i = spatial; i < 2; ++i) view.push_back(1);
  view.insert(view.end(), xs.end() - long(spatial), xs.end());
  return view;
}

void emit_interpolate(Emitter& e, const ir::Function& f) {
  NN_CHECK(!f.attrs.get_bool("channel_last", false)) << "channel_last=true is not supported for ONNX export";
  const std::string mode = f.attrs.get_string("mode", "linear");
  NN_CHECK(mode == "linear" || mode == "nearest") << "mode '" << mode << "' is not supported";
  const std::string& x = f.inputs.at(0);
  const std::string& y = f.outputs.at(0);
  const Shape& xs = e.shape(x);
  const std::vector<int64_t> out_size = f.attrs.get_ints("output_size", {});
  NN_CHECK(!out_size.empty() && out_size.size() <= 3 && out_size.size() < xs.size())
      << "output_size " << out_size << " does not fit input " << xs;
  const Shape view = resize_view(xs, out_size.size());
  Shape sizes = view;
  for (size_t i = 0; i < out_size.size(); ++i) sizes[sizes.size() - out_size.size() + i] = out_size[i];
  const bool reshaped = view != xs;
  const std::string resize_in = reshaped ? e.reshape(x, view) : x;
  const std::string resize_out = reshaped ? e.fresh(y, "resize") : y;
  // Sizes rather than upstream's scales: the output size is exact (float scales can round it down). A symbolic
  // batch needs scales (sizes would fix it): only where out/in as float gives back the same size.
  std::string roi = e.float_initializer("interpolate_roi", {}, {0});
  std::vector<std::string> inputs = {resize_in, roi};
  if (e.dynamic_batch()) {
    std::vector<float> scales;
    for (size_t i = 0; i < view.size(); ++i) {
      scales.push_back(float(sizes[i]) / float(view[i]));
      NN_CHECK_CODE(int64_t(scales.back() * float(view[i])) == sizes[i], ErrorCode::kUnsupported)
          << "output size " << sizes[i] << " from " << view[i] << " is not exact as a float scale "
          << "(needed with a symbolic batch)";
    }
    inputs.push_back(e.float_initializer("interpolate_scales", scales, {int64_t(scales.size())}));
  } else {
    inputs.push_back(e.float_initializer("interpolate_scales", {}, {0}));
    inputs.push_back(e.int64_initializer("interpolate_sizes", std::vector<int64_t>(sizes.begin(), sizes.end())));
  }
  onnx::NodeProto* n = e.node("Resize", inputs, {resize_out}, e.node_name("Resize"));
  set_attr(n, "mode", mode);
  set_attr(n, "coordinate_transformation_mode", coordinate_mode(f, mode == "nearest"));
  if (mode == "nearest") set_attr(n, "nearest_mode", std::string("floor"));
  if (reshaped) e.reshape(resize_out, e.shape(y), y);
}

}  // namespace

void add_resize_rules(std::vector<Rule>& rules) {
  rules.push_back({"Interpolate", 11, emit_interpolate});  // Resize with roi/sizes and coordinate modes
}

}  // namespace nn::formats::onnx_export
