// Device loads and stores of float or __half storage for kernels that compute in float.
#pragma once
#include <cuda_fp16.h>

#include <cstdint>

namespace nn::cuda::k::io {

__device__ inline float load(const float* p, int64_t i) { return p[i]; }
__device__ inline float load(const __half* p, int64_t i) { return __half2float(p[i]); }
__device__ inline void store(float* p, int64_t i, float v) { p[i] = v; }
__device__ inline void store(__half* p, int64_t i, float v) { p[i] = __float2half_rn(v); }

// The same conversions on values: to_float(x), from_float<T>(v).
__device__ inline float to_float(float v) { return v; }
__device__ inline float to_float(__half v) { return __half2float(v); }
template <class T>
__device__ inline T from_float(float v);
template <>
__device__ inline float from_float<float>(float v) {
  return v;
}
template <>
__device__ inline __half from_float<__half>(float v) {
  return __float2half_rn(v);
}

}  // namespace nn::cuda::k::io
