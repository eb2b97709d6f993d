// ONNXResize: ONNX Resize (nearest / linear / cubic, every coordinate transformation mode); forward only.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ops/detail/op_common.hpp"
#include "ops/signal/onnx_resize_modes.hpp"

namespace nn::ops {
namespace {

enum class CoordMode { kHalfPixel, kPytorchHalfPixel, kAlignCorners, kAsymmetric, kTfHalfPixelForNN, kTfCrop };
enum class NearestMode { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };

CoordMode parse_coord_mode(const std::string& s) {
  if (s == "half_pixel") return CoordMode::kHalfPixel;
  if (s == "pytorch_half_pixel") return CoordMode::kPytorchHalfPixel;
  if (s == "align_corners") return CoordMode::kAlignCorners;
  if (s == "asymmetric") return CoordMode::kAsymmetric;
  if (s == "tf_half_pixel_for_nn") return CoordMode::kTfHalfPixelForNN;
  NN_CHECK(s == "tf_crop_and_resize") << "ONNXResize: coordinate_transformation_mode '" << s
                                      << "' is not one of half_pixel, pytorch_half_pixel, align_corners, "
                                         "asymmetric, tf_half_pixel_for_nn, tf_crop_and_resize";
  return CoordMode::kTfCrop;
}

NearestMode parse_nearest_mode(const std::string& s) {
  if (s == "round_prefer_floor") return NearestMode::kRoundPreferFloor;
  if (s == "round_prefer_ceil") return NearestMode::kRoundPreferCeil;
  if (s == "floor") return NearestMode::kFloor;
  NN_CHECK(s == "ceil") << "ONNXResize: nearest_mode '" << s
                        << "' is not one of round_prefer_floor, round_prefer_ceil, floor, ceil";
  return NearestMode::kCeil;
}

// Keys' cubic convolution kernel with parameter a, for |t| <= 2.
float cubic_kernel(float a, float t) {
  t = std::fabs(t);
  if (t <= 1.f) return ((a + 2.f) * t - (a + 3.f)) * t * t + 1.f;
  if (t < 2.f) return ((a * t - 5.f * a) * t + 8.f * a) * t - 4.f * a;
  return 0.f;
}

// Source taps of every output index along one axis: `taps` (index, weight) pairs per output index, and
// whether the output index lies outside the crop (tf_crop_and_resize extrapolation).
struct AxisTaps {
  int64_t taps = 1;
  std::vector<int64_t> index;
  std::vector<float> weight;
  std::vector<uint8_t> outside;
};

class ONNXResize : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }  // upstream has no backward either

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const size_t ndim = xs.size();
    const auto roi = attrs_.get_floats("roi");
    const auto scales_arg = attrs_.get_floats("scales");
    const auto sizes = attrs_.get_ints("sizes");
    mode_ = attrs_.get_string("mode");
    coord_ = parse_coord_mode(attrs_.get_string("coordinate_transformation_mode"));
    nearest_ = parse_nearest_mode(attrs_.get_string("nearest_mode"));
    cubic_a_ = float(attrs_.get_float("cubic_coeff_a"));
    exclude_outside_ = attrs_.get_int("exclude_outside") != 0;
    extrapolation_ = float(attrs_.get_float("extrapolation_value"));
    NN_CHECK(mode_ == "nearest" || mode_ == "linear" || mode_ == "cubic")
        << "ONNXResize: mode '" << mode_ << "' is not one of nearest, linear, cubic";
    NN_CHECK(sizes.empty() != scales_arg.empty())
        << "ONNXResize: exactly one of sizes " << to_string(sizes) << " and scales (" << scales_arg.size()
        << " values) must be given";

    Shape ys(ndim);
    std::vector<float> scales(ndim);
    if (!sizes.empty()) {
      NN_CHECK(sizes.size() == ndim) << "ONNXResize: sizes " << to_string(sizes) << " must have one entry per "
                                     << "dimension of input " << to_string(xs);
      for (size_t d = 0; d < ndim; ++d) {
        ys[d] = sizes[d];
        scales[d] = float(sizes[d]) / float(xs[d]);
      }
    } else {
      NN_CHECK(scales_arg.size() == ndim)
          << "ONNXResize: scales (" << scales_arg.size() << " values) must have one entry per dimension of input "
          << to_string(xs);
      for (size_t d = 0; d < ndim; ++d) {
        scales[d] = float(scales_arg[d]);
        NN_CHECK(scales[d] > 0.f) << "ONNXResize: scale " << scales_arg[d] << " of axis " << d
                                  << " must be positive";
        ys[d] = int64_t(std::floor(float(xs[d]) * scales[d]));
      }
    }
    for (size_t d = 0; d < ndim; ++d)
      NN_CHECK(ys[d] > 0 && xs[d] > 0) << "ONNXResize: input " << to_string(xs) << " resized to " << to_string(ys)
                                       << " has an empty dimension";

    // Leading axes with scale 1 are batch-like; the rest are resized (a scale-1 axis among them is copied).
    first_resized_ = 0;
    while (first_resized_ < ndim && scales[first_resized_] == 1.f) ++first_resized_;
    if (coord_ == CoordMode::kTfCrop) {
      NN_CHECK(roi.size() == 2 * ndim) << "ONNXResize: roi has " << roi.size() << " values, expected " << 2 * ndim
                                       << " (starts and ends) for input " << to_string(xs);
      for (size_t d = 0; d < first_resized_; ++d)
        NN_CHECK(roi[d] == 0.0 && roi[ndim + d] == 1.0)
            << "ONNXResize: roi of the unresized axis " << d << " must be (0, 1), got (" << roi[d] << ", "
            << roi[ndim + d] << ")";
    }
    in_dims_.assign(xs.begin() + first_resized_, xs.end());
    out_dims_.assign(ys.begin() + first_resized_, ys.end());
    axes_.clear();
    for (size_t d = first_resized_; d < ndim; ++d) {
      const float start = roi.empty() ? 0.f : float(roi[d]), end = roi.empty() ? 1.f : float(roi[ndim + d]);
      axes_.push_back(make_taps(xs[d], ys[d], scales[d], start, end));
    }
    out[0]->reshape(ys, true);
  }

  // Source coordinate of output index o along an axis (upstream computes it in float, as ONNX Runtime).
  float source_coordinate(int64_t o, int64_t in_size, int64_t out_size, float scale, float start,
                          float end) const {
    const float x = float(o), lo = float(out_size), li = float(in_size);
    if (scale == 1.f) return x;
    switch (coord_) {
      case CoordMode::kHalfPixel: return (x + 0.5f) / scale - 0.5f;
      case CoordMode::kPytorchHalfPixel: return lo > 1.f ? (x + 0.5f) / scale - 0.5f : 0.f;
      case CoordMode::kAlignCorners: return lo == 1.f ? 0.f : x * (li - 1.f) / (lo - 1.f);
      case CoordMode::kAsymmetric: return x / scale;
      case CoordMode::kTfHalfPixelForNN: return (x + 0.5f) / scale;
      case CoordMode::kTfCrop:
        return lo > 1.f ? start * (li - 1.f) + x * (end - start) * (li - 1.f) / (lo - 1.f)
                        : 0.5f * (start + end) * (li - 1.f);
    }
    return x;
  }

  int64_t nearest_index(float f) const {
    switch (nearest_) {
      case NearestMode::kRoundPreferCeil: return int64_t(std::round(f));
      case NearestMode::kFloor: return int64_t(std::floor(f));
      case NearestMode::kCeil: return int64_t(std::ceil(f));
      case NearestMode::kRoundPreferFloor: break;
    }
    return f == std::floor(f) + 0.5f ? int64_t(std::floor(f)) : int64_t(std::round(f));
  }

  AxisTaps make_taps(int64_t in_size, int64_t out_size, float scale, float start, float end) const {
    AxisTaps a;
    const bool identity = scale == 1.f;
    a.taps = identity || mode_ == "nearest" ? 1 : mode_ == "linear" ? 2 : 4;
    auto clamp = [&](int64_t i) { return std::clamp<int64_t>(i, 0, in_size - 1); };
    for (int64_t o = 0; o < out_size; ++o) {
      const float f = source_coordinate(o, in_size, out_size, scale, start, end);
      a.outside.push_back(!identity && coord_ == CoordMode::kTfCrop && (f < 0.f || f > float(in_size - 1)));
      if (a.taps == 1) {
        a.index.push_back(clamp(identity ? o : nearest_index(f)));
        a.weight.push_back(1.f);
        continue;
      }
      const int64_t base = int64_t(std::floor(f));
      const float frac = f - std::floor(f);
      if (a.taps == 2) {
        a.index.insert(a.index.end(), {clamp(base), clamp(base + 1)});
        a.weight.insert(a.weight.end(), {1.f - frac, frac});
        continue;
      }
      float w[4], sum = 0.f;
      for (int k = 0; k < 4; ++k) {
        const int64_t i = base - 1 + k;
        w[k] = cubic_kernel(cubic_a_, frac + 1.f - float(k));
        if (exclude_outside_ && (i < 0 || i >= in_size)) w[k] = 0.f;
        sum += w[k];
        a.index.push_back(clamp(i));
      }
      for (int k = 0; k < 4; ++k) a.weight.push_back(exclude_outside_ ? w[k] / sum : w[k]);
    }
    return a;
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const size_t nd = axes_.size();
    const int64_t in_block = shape_size(in_dims_), out_block = shape_size(out_dims_);
    const int64_t outer = out[0]->size() / out_block;
    int64_t combos = 1;
    for (const auto& a : axes_) combos *= a.taps;
    parallel_for(outer * out_block, [&](int64_t e) {
      const float* src = x + (e / out_block) * in_block;
      std::vector<int64_t> o(nd);
      int64_t rest = e % out_block;
      bool outside = false;
      for (size_t d = nd; d-- > 0;) {
        o[d] = rest % out_dims_[d], rest /= out_dims_[d];
        outside |= axes_[d].outside[size_t(o[d])] != 0;
      }
      if (outside) {
        y[e] = extrapolation_;
        return;
      }
      float acc = 0.f;
      for (int64_t c = 0; c < combos; ++c) {
        int64_t code = c, offset = 0;
        float w = 1.f;
        for (size_t d = 0; d < nd; ++d) {
          const AxisTaps& a = axes_[d];
          const int64_t t = code % a.taps;
          code /= a.taps;
          const size_t k = size_t(o[d] * a.taps + t);
          w *= a.weight[k];
          offset = offset * in_dims_[d] + a.index[k];
        }
        acc += w * src[offset];
      }
      y[e] = acc;
    });
  }

  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

 private:
  std::string mode_;
  CoordMode coord_ = CoordMode::kHalfPixel;
  NearestMode nearest_ = NearestMode::kRoundPreferFloor;
  float cubic_a_ = -0.75f, extrapolation_ = 0.f;
  bool exclude_outside_ = false;
  size_t first_resized_ = 0;
  Shape in_dims_, out_dims_;
  std::vector<AxisTaps> axes_;
};

}  // namespace

SchemaBuilder& with_resize_modes(SchemaBuilder& schema) {
  return schema.arg("mode", AttrType::kString, AttrValue(std::string("nearest")))
      .arg("coordinate_transformation_mode", AttrType::kString, AttrValue(std::string("half_pixel")))
      .arg("cubic_coeff_a", AttrType::kFloat, AttrValue(-0.75))
      .arg("exclude_outside", AttrType::kInt, AttrValue(int64_t(0)))
      .arg("extrapolation_value", AttrType::kFloat, AttrValue(0.0))
      .arg("nearest_mode", AttrType::kString, AttrValue(std::string("round_prefer_floor")));
}

void register_onnx_resize(OpRegistry& r) {
  register_cpu<ONNXResize>(
      r, with_resize_modes(SchemaBuilder("ONNXResize", "Array Manipulation")
                               .doc("ONNX Resize: nearest, linear or cubic resampling to sizes or by scales")
                               .in("x")
                               .arg("roi", AttrType::kFloats, AttrValue(std::vector<double>{}))
                               .arg("scales", AttrType::kFloats, AttrValue(std::vector<double>{}))
                               .arg("sizes", AttrType::kInts, AttrValue(std::vector<int64_t>{})))
             .out("y")
             .build());
}

}  // namespace nn::ops
