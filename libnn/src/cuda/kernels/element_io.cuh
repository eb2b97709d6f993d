// Device loads and stores of float or __half storage for kernels that compute in float.
#pragma once
#include <cuda_fp16.h>

#include <cstdint>

namespace nn::cuda::k::io {

__device__ inline float load(const float* p, int64_t i) { return p[i]; }
__device__ inline float load(const __half* p, int64_t i) { return __half2float(p[i]); }
__device__ inline void store(float* p, int64_t i, float v) { p[i] = v; }
__device__ inline void store(__half* p, int64_t i, float v) { p[i] = __float2half_rn(v); }

}  // namespace nn::cuda::k::io
