// Three planes to interleaved pixels: an RGB image in plain (N, 3, H, W) order to channels-last (N, H, W, 3),
// the conversion at the input of every image CNN.
#pragma once
#include <cstdint>

namespace nn::ops {

// y[(b * pixels + p) * 3 + c] = x[(b * 3 + c) * pixels + p] for `images` images of `pixels` pixels (threaded
// when large).
void interleave_three_planes(const float* x, float* y, int64_t images, int64_t pixels);

}  // namespace nn::ops
