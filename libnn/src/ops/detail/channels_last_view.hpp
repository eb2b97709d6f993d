// Forward-only kernels of functions that sit between convolutions (pooling, concatenation) read and write
// the channels-last host layout the oneDNN convolutions leave their outputs in, instead of reordering.
#pragma once
#include <cstring>

#include "nn/core/ndarray.hpp"
#include "nn/graph/grad_mode.hpp"

namespace nn::ops {

// The name of the channels-last (N, spatial..., C) host layout (registered by dnnl_layout.cpp).
inline constexpr const char* kChannelsLastLayout = "dnnl_nxc";

inline ArrayKey channels_last_key() { return ArrayKey{DType::kFloat32, kChannelsLastLayout}; }

// Whether a forward may work on `a` in channels-last order: gradients off, a 4-D array whose newest copy
// is already in that layout (so reading it costs nothing).
inline bool held_channels_last(NdArray& a) {
  return !grad_enabled() && a.ndim() == 4 && a.device() == kChannelsLastLayout;
}

// Copies one pixel's n channels inline: a library memmove call per pixel costs more than the copy itself
// (64 channels are four vector moves).
inline void copy_channels(const float* __restrict src, float* __restrict dst, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) std::memcpy(dst + i, src + i, 16 * sizeof(float));
  for (; i < n; ++i) dst[i] = src[i];
}

}  // namespace nn::ops
