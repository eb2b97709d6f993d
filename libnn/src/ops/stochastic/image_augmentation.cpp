// ImageAugmentation: per-image random scale/aspect/rotation/crop/flip/distortion, brightness, contrast
// and noise over the last two axes (nnabla's generic CPU semantics and random-draw order; forward only).
#include <cmath>
#include <random>

#include "nn/core/random.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/stochastic/image_augmentation_draw.hpp"

namespace nn::ops {
namespace {

class ImageAugmentation : public Function {
 public:
  ImageAugmentation(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), settings_(attrs_), random_(settings_.seed) {}
  bool is_stochastic() const override { return true; }
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    NN_CHECK(xs.size() >= 2) << "ImageAugmentation: input must have at least 2 dimensions (height, width), got "
                             << to_string(xs);
    Shape shape = attrs_.get_ints("shape", {});
    if (shape.empty()) shape = xs;  // default: x.shape
    NN_CHECK(shape.size() >= 2 && shape.size() <= xs.size())
        << "ImageAugmentation: shape " << to_string(shape) << " must have 2 to " << xs.size()
        << " dimensions for input " << to_string(xs);
    NN_CHECK(settings_.pad.size() == 2)
        << "ImageAugmentation: pad must be (height, width), got " << to_string(settings_.pad);
    const AugmentSettings& st = settings_;
    NN_CHECK(st.min_scale > 0 && st.max_scale > 0 && st.aspect_ratio > 0 && st.contrast > 0)
        << "ImageAugmentation: min_scale " << st.min_scale << ", max_scale " << st.max_scale << ", aspect_ratio "
        << st.aspect_ratio << " and contrast " << st.contrast << " must be positive";
    Shape ys = xs;
    const size_t offset = xs.size() - shape.size();
    for (size_t i = 0; i < shape.size(); ++i) ys[offset + i] = shape[i];
    // Leading (image and channel) axes must match: the kernel walks images and channels of x and y alike.
    NN_CHECK(shape_size(ys, 0, ys.size() - 2) == shape_size(xs, 0, xs.size() - 2))
        << "ImageAugmentation: shape " << to_string(shape) << " changes the non-spatial axes of input "
        << to_string(xs);
    NN_CHECK(ys[ys.size() - 1] > 0 && ys[ys.size() - 2] > 0 && xs.back() > 0 && xs[xs.size() - 2] > 0)
        << "ImageAugmentation: empty image: input " << to_string(xs) << ", output " << to_string(ys);
    out[0]->reshape(ys, true);
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const Shape& ys = out[0]->shape();
    const int w_in = int(xs[xs.size() - 1]), h_in = int(xs[xs.size() - 2]);
    const int w_out = int(ys[ys.size() - 1]), h_out = int(ys[ys.size() - 2]);
    const int pad_h = int(settings_.pad[0]), pad_w = int(settings_.pad[1]);
    const int channels = xs.size() >= 3 ? int(xs[xs.size() - 3]) : 1;
    const int64_t images = shape_size(xs) / (int64_t(w_in) * h_in * channels);
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    RandomEngine& g = random_.engine();
    std::normal_distribution<> normal(0.0, 1.0);
    const float w_half = w_out * 0.5f, h_half = h_out * 0.5f;
    const float inv_w_half = 1.0f / w_half, inv_h_half = 1.0f / h_half;
    const float contrast_center = settings_.contrast_center;
    const int64_t in_plane = int64_t(h_in) * w_in, out_plane = int64_t(h_out) * w_out;

    for (int64_t im = 0; im < images; ++im) {
      const float* x_im = x + im * in_plane * channels;
      float* y_im = y + im * out_plane * channels;
      const AugmentDraw d = draw_augmentation(g, settings_, w_in, h_in, w_out, h_out, pad_w, pad_h, channels);
      const float x_ax = d.x_ax, y_ax = d.y_ax, x_ay = d.x_ay, y_ay = d.y_ay;
      const float distortion = d.distortion, noise = d.noise;
      const std::vector<float>& ch_shift = d.shift;
      const std::vector<float>& ch_gain = d.gain;
      float x0 = d.x0, y0 = d.y0;
      for (int iy = 0; iy < h_out; ++iy) {
        float xl = x0, yl = y0;
        for (int ix = 0; ix < w_out; ++ix) {
          float xi = xl, yi = yl;
          if (distortion != 0.0f) {  // radial lens distortion around the output centre
            float dx = (ix - w_half) * inv_w_half, dy = (iy - h_half) * inv_h_half;
            const float r = std::sqrt(dx * dx + dy * dy);
            const float r2 = r * r;
            const float norm = 1.0f / (1.0f + distortion);
            dx = (dx + dx * distortion * r2) * w_half * norm + w_half;
            dy = (dy + dy * distortion * r2) * h_half * norm + h_half;
            xi = x0 + dx * x_ax + dy * y_ax;
            yi = y0 + dx * x_ay + dy * y_ay;
          }
          xi = xi < 0 ? 0.0f : xi > w_in - 1 ? float(w_in - 1) : xi;
          yi = yi < 0 ? 0.0f : yi > h_in - 1 ? float(h_in - 1) : yi;
          const int ix0 = int(xi), iy0 = int(yi);
          const float fx = xi - ix0, fy = yi - iy0;
          const int ix1 = ix0 < w_in - 1 ? ix0 + 1 : ix0, iy1 = iy0 < h_in - 1 ? iy0 + 1 : iy0;
          const int64_t o00 = ix0 + int64_t(iy0) * w_in, o01 = ix1 + int64_t(iy0) * w_in;
          const int64_t o10 = ix0 + int64_t(iy1) * w_in, o11 = ix1 + int64_t(iy1) * w_in;
          const float g00 = (1 - fx) * (1 - fy), g01 = fx * (1 - fy), g10 = (1 - fx) * fy, g11 = fx * fy;
          float* y_px = y_im + int64_t(iy) * w_out + ix;
          for (int c = 0; c < channels; ++c) {
            const float* xc = x_im + c * in_plane;
            float v = 0.f;
            v += xc[o00] * g00;
            v += xc[o01] * g01;
            v += xc[o10] * g10;
            v += xc[o11] * g11;
            v = (v + ch_shift[c]) * ch_gain[c] + contrast_center;
            if (noise > 0.0f) v += float(normal(g)) * noise;
            y_px[c * out_plane] = v;
          }
          xl += x_ax;
          yl += x_ay;
        }
        if (distortion == 0.0f) {
          x0 += y_ax;
          y0 += y_ay;
        }
      }
    }
  }

  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

 private:
  AugmentSettings settings_;
  SeededRandom random_;
};

}  // namespace

AugmentSettings::AugmentSettings(const Attrs& a)
    : pad(a.get_ints("pad")),
      min_scale(float(a.get_float("min_scale"))),
      max_scale(float(a.get_float("max_scale"))),
      angle(float(a.get_float("angle"))),
      aspect_ratio(float(a.get_float("aspect_ratio"))),
      distortion(float(a.get_float("distortion"))),
      flip_lr(a.get_bool("flip_lr")),
      flip_ud(a.get_bool("flip_ud")),
      brightness(float(a.get_float("brightness"))),
      brightness_each(a.get_bool("brightness_each")),
      contrast(float(a.get_float("contrast"))),
      contrast_center(float(a.get_float("contrast_center"))),
      contrast_each(a.get_bool("contrast_each")),
      noise(float(a.get_float("noise"))),
      seed(a.get_int("seed")) {}

namespace {
// A uniform draw on {0, 0.001, ..., 1}, as upstream.
float unit(RandomEngine& g) { return float(g() % 1001) * 0.001f; }
}  // namespace

AugmentDraw draw_augmentation(RandomEngine& g, const AugmentSettings& s, int w_in, int h_in, int w_out, int h_out,
                              int pad_w, int pad_h, int channels) {
  // Draws, in upstream's order.
  const float scale = s.min_scale * std::exp(unit(g) * std::log(s.max_scale / s.min_scale));
  const float scale_x = float(std::exp(-std::log(s.aspect_ratio) * 0.5 + unit(g) * std::log(s.aspect_ratio)));
  const float scale_y = float(1.0 / scale_x);
  const float inv_sx = 1.0f / (scale * scale_x), inv_sy = 1.0f / (scale * scale_y);
  const float angle = -s.angle + unit(g) * s.angle * 2;
  const float w_scaled = (w_in + pad_w * 2) * scale * scale_x;
  const float h_scaled = (h_in + pad_h * 2) * scale * scale_y;
  const float cx = (w_out - 1) * 0.5f, cy = (h_out - 1) * 0.5f;
  const float cx_scaled = unit(g) * (w_scaled - w_out) + cx;
  const float cy_scaled = unit(g) * (h_scaled - h_out) + cy;
  const bool flip_lr = s.flip_lr && (g() % 2);
  const bool flip_ud = s.flip_ud && (g() % 2);
  const float global_brightness = unit(g) * s.brightness * 2.0f - s.brightness;
  const float global_contrast = std::exp(unit(g) * std::log(s.contrast) * 2.0f) / s.contrast;
  AugmentDraw d;
  d.shift.resize(size_t(channels));
  d.gain.resize(size_t(channels));
  for (int c = 0; c < channels; ++c) {
    const float b = s.brightness_each ? unit(g) * s.brightness * 2.0f - s.brightness : global_brightness;
    d.shift[size_t(c)] = b - s.contrast_center;
    d.gain[size_t(c)] =
        s.contrast_each ? std::exp(unit(g) * std::log(s.contrast) * 2.0f) / s.contrast : global_contrast;
  }
  d.distortion = std::exp(unit(g) * 2.0f * s.distortion - s.distortion) - 1.0f;
  d.noise = unit(g) * s.noise;
  const float cos_t = std::cos(angle), sin_t = std::sin(angle);
  d.x_ax = (flip_lr ? -cos_t : cos_t) * inv_sx;
  d.y_ax = (flip_lr ? sin_t : -sin_t) * inv_sy;
  d.x_ay = (flip_ud ? -sin_t : sin_t) * inv_sx;
  d.y_ay = (flip_ud ? -cos_t : cos_t) * inv_sy;
  d.x0 = cx_scaled * inv_sx - (d.x_ax * cx + d.y_ax * cy) - pad_w;
  d.y0 = cy_scaled * inv_sy - (d.x_ay * cx + d.y_ay * cy) - pad_h;
  return d;
}

void register_image_augmentation(OpRegistry& r) {
  register_cpu<ImageAugmentation>(
      r, SchemaBuilder("ImageAugmentation", "Stochasticity")
             .doc("random geometric and photometric augmentation of images (forward only)")
             .in("x")
             .arg("shape", AttrType::kShape, std::nullopt, "x.shape")
             .arg("pad", AttrType::kShape, AttrValue(std::vector<int64_t>{0, 0}))
             .arg("min_scale", AttrType::kFloat, AttrValue(1.0))
             .arg("max_scale", AttrType::kFloat, AttrValue(1.0))
             .arg("angle", AttrType::kFloat, AttrValue(0.0))
             .arg("aspect_ratio", AttrType::kFloat, AttrValue(1.0))
             .arg("distortion", AttrType::kFloat, AttrValue(0.0))
             .arg("flip_lr", AttrType::kBool, AttrValue(false))
             .arg("flip_ud", AttrType::kBool, AttrValue(false))
             .arg("brightness", AttrType::kFloat, AttrValue(0.0))
             .arg("brightness_each", AttrType::kBool, AttrValue(false))
             .arg("contrast", AttrType::kFloat, AttrValue(1.0))
             .arg("contrast_center", AttrType::kFloat, AttrValue(0.0))
             .arg("contrast_each", AttrType::kBool, AttrValue(false))
             .arg("noise", AttrType::kFloat, AttrValue(0.0))
             .arg("seed", AttrType::kInt, AttrValue(int64_t(-1)))
             .out("y")
             .build());
}

}  // namespace nn::ops
