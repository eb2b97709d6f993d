// One image's random transform of ImageAugmentation, drawn in upstream's order: shared by the CPU kernel and
// the CUDA one, so one seed gives the same draws on both backends.
#pragma once
#include <cstdint>
#include <vector>

#include "nn/core/random.hpp"
#include "nn/core/shape.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::ops {

// The attributes that drive the draws (all but the output `shape`, which defaults to x's).
struct AugmentSettings {
  explicit AugmentSettings(const Attrs& a);
  Shape pad;  // (height, width)
  float min_scale, max_scale, angle, aspect_ratio, distortion;
  bool flip_lr, flip_ud;
  float brightness;
  bool brightness_each;
  float contrast, contrast_center;
  bool contrast_each;
  float noise;
  int64_t seed;
};

// Output pixel (ix, iy) samples the input at (x0 + ix*x_ax + iy*y_ax, y0 + ix*x_ay + iy*y_ay), before the
// radial distortion (when non-zero) and clamping; then v = (v + shift[c]) * gain[c] + contrast_center, plus
// noise * N(0, 1) per value when noise > 0 (those normal draws follow the per-image ones, per pixel).
struct AugmentDraw {
  float x0 = 0, y0 = 0, x_ax = 0, y_ax = 0, x_ay = 0, y_ay = 0;
  float distortion = 0, noise = 0;
  std::vector<float> shift, gain;  // per channel
};

AugmentDraw draw_augmentation(RandomEngine& g, const AugmentSettings& s, int w_in, int h_in, int w_out, int h_out,
                              int pad_w, int pad_h, int channels);

}  // namespace nn::ops
