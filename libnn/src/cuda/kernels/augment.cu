// ImageAugmentation on the device: one thread per output pixel of an image, all channels; the source point
// is computed directly (the CPU kernel steps it along rows, so the two may differ in the last bits).
#include "cuda/kernels/augment.hpp"
#include "cuda/kernels/launch.cuh"

namespace nn::cuda::k {
namespace {

__global__ void augment_kernel(AugmentDims d, const AugmentImage* images, const float* shift, const float* gain,
                               const float* normals, const float* x, float* y) {
  const int64_t plane_out = int64_t(d.h_out) * d.w_out, plane_in = int64_t(d.h_in) * d.w_in;
  NN_GRID_LOOP(i, d.images * plane_out) {
    const int64_t im = i / plane_out;
    const int iy = int((i % plane_out) / d.w_out), ix = int(i % d.w_out);
    const AugmentImage p = images[im];
    float xi, yi;
    if (p.distortion != 0.f) {  // radial lens distortion around the output centre, as the CPU kernel
      const float w_half = d.w_out * 0.5f, h_half = d.h_out * 0.5f;
      float dx = (ix - w_half) * (1.0f / w_half), dy = (iy - h_half) * (1.0f / h_half);
      const float r = sqrtf(dx * dx + dy * dy);
      const float r2 = r * r;
      const float norm = 1.0f / (1.0f + p.distortion);
      dx = (dx + dx * p.distortion * r2) * w_half * norm + w_half;
      dy = (dy + dy * p.distortion * r2) * h_half * norm + h_half;
      xi = p.x0 + dx * p.x_ax + dy * p.y_ax;
      yi = p.y0 + dx * p.x_ay + dy * p.y_ay;
    } else {
      xi = p.x0 + ix * p.x_ax + iy * p.y_ax;
      yi = p.y0 + ix * p.x_ay + iy * p.y_ay;
    }
    xi = xi < 0 ? 0.0f : xi > d.w_in - 1 ? float(d.w_in - 1) : xi;
    yi = yi < 0 ? 0.0f : yi > d.h_in - 1 ? float(d.h_in - 1) : yi;
    const int ix0 = int(xi), iy0 = int(yi);
    const float fx = xi - ix0, fy = yi - iy0;
    const int ix1 = ix0 < d.w_in - 1 ? ix0 + 1 : ix0, iy1 = iy0 < d.h_in - 1 ? iy0 + 1 : iy0;
    const int64_t o00 = ix0 + int64_t(iy0) * d.w_in, o01 = ix1 + int64_t(iy0) * d.w_in;
    const int64_t o10 = ix0 + int64_t(iy1) * d.w_in, o11 = ix1 + int64_t(iy1) * d.w_in;
    const float g00 = (1 - fx) * (1 - fy), g01 = fx * (1 - fy), g10 = (1 - fx) * fy, g11 = fx * fy;
    const int64_t pixel = int64_t(iy) * d.w_out + ix;
    for (int c = 0; c < d.channels; ++c) {
      const int64_t ic = im * d.channels + c;
      const float* xc = x + ic * plane_in;
      float v = xc[o00] * g00 + xc[o01] * g01 + xc[o10] * g10 + xc[o11] * g11;
      v = (v + shift[ic]) * gain[ic] + d.contrast_center;
      if (p.noise > 0.f) v += normals[ic * plane_out + pixel] * p.noise;
      y[ic * plane_out + pixel] = v;
    }
  }
}

}  // namespace

void image_augment(cudaStream_t s, const AugmentDims& d, const AugmentImage* images, const float* shift,
                   const float* gain, const float* normals, const float* x, float* y) {
  const int64_t n = d.images * d.h_out * d.w_out;
  if (n == 0) return;
  augment_kernel<<<blocks_for(n), kThreads, 0, s>>>(d, images, shift, gain, normals, x, y);
  check_launch("augment_kernel");
}

}  // namespace nn::cuda::k
