// Launcher of the ImageAugmentation kernel: per-image transforms drawn on the host (by the CPU kernel's own
// draw function), applied on the device.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace nn::cuda::k {

// One image's affine sampling and photometric settings (ops::AugmentDraw without the per-channel arrays).
struct AugmentImage {
  float x0, y0, x_ax, y_ax, x_ay, y_ay, distortion, noise;
};

struct AugmentDims {
  int64_t images = 0;
  int channels = 1, w_in = 0, h_in = 0, w_out = 0, h_out = 0;
  float contrast_center = 0.f;
};

// y[image, c, iy, ix] = (bilinear(x[image, c], source(ix, iy)) + shift[image, c]) * gain[image, c]
//                       + contrast_center (+ normals[image, c, iy, ix] * noise). All pointers on the device;
// normals may be null when no image has noise.
void image_augment(cudaStream_t s, const AugmentDims& d, const AugmentImage* images, const float* shift,
                   const float* gain, const float* normals, const float* x, float* y);

}  // namespace nn::cuda::k
