// Launch helpers for the .cu files: grid sizing, grid-stride loops and the post-launch check.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace nn::cuda::k {

constexpr int kThreads = 256;

inline unsigned blocks_for(int64_t n) {
  int64_t b = (n + kThreads - 1) / kThreads;
  if (b < 1) b = 1;
  return unsigned(b > 65535 * 8 ? 65535 * 8 : b);
}

// Thrown by the launchers and turned into nn::Error by the callers' wrappers (launch_failed in launch.cu).
void launch_failed(const char* kernel, cudaError_t e);
inline void check_launch(const char* kernel) {
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) launch_failed(kernel, e);
}

#ifdef __CUDACC__
// Offset of element i of a C-order index space `shape` in memory laid out with `strides`.
__device__ inline int64_t strided_offset(int64_t i, int ndim, const int64_t* shape, const int64_t* strides) {
  int64_t off = 0;
  for (int d = ndim - 1; d >= 0; --d) {
    off += (i % shape[d]) * strides[d];
    i /= shape[d];
  }
  return off;
}

// Launches kernel(n, args...) over n elements (grid-stride loops) on stream s and checks the launch;
// nothing for n == 0.
template <class... Params, class... Args>
void launch_grid(cudaStream_t s, const char* name, int64_t n, void (*kernel)(int64_t, Params...), Args... args) {
  if (n == 0) return;
  kernel<<<blocks_for(n), kThreads, 0, s>>>(n, args...);
  check_launch(name);
}
#endif

#define NN_GRID_LOOP(i, n) \
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); i += int64_t(blockDim.x) * gridDim.x)

}  // namespace nn::cuda::k
