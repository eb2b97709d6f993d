// Strided copies (transpose, slice, concatenate, broadcast back), sums over axes and bias additions; the copies
// and sums for float and __half storage.
#include "cuda/kernels/kernels.hpp"
#include "cuda/kernels/launch.cuh"
#include "cuda/kernels/shape.hpp"

namespace nn::cuda::k {
namespace {

template <class T>
__global__ void strided_copy_kernel(int64_t n, StridedView v, const T* src, T* dst, float scale, bool accum) {
  NN_GRID_LOOP(i, n) {
    int64_t rest = i, so = v.src_offset, dof = v.dst_offset;
    for (int d = v.ndim - 1; d >= 0; --d) {
      const int64_t idx = rest % v.shape[d];
      rest /= v.shape[d];
      so += idx * v.src_strides[d];
      dof += idx * v.dst_strides[d];
    }
    const float value = scale * load_f(src + so);
    store_f(dst + dof, accum ? load_f(dst + dof) + value : value);
  }
}

// One block per output (grid-stride over outputs), threads stride over the reduced elements.
template <class T>
__global__ void reduce_sum_kernel(ReduceDims d, const T* x, T* y, float scale, bool accum) {
  __shared__ float partial[kThreads];
  for (int64_t o = blockIdx.x; o < d.outputs; o += gridDim.x) {
    const int64_t base = strided_offset(o, d.kept_ndim, d.kept_shape, d.kept_strides);
    float sum = 0.f;
    for (int64_t r = threadIdx.x; r < d.reduced; r += blockDim.x)
      sum += load_f(x + base + strided_offset(r, d.reduced_ndim, d.reduced_shape, d.reduced_strides));
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
      if (threadIdx.x < w) partial[threadIdx.x] += partial[threadIdx.x + w];
      __syncthreads();
    }
    if (threadIdx.x == 0) store_f(y + o, accum ? load_f(y + o) + scale * partial[0] : scale * partial[0]);
    __syncthreads();
  }
}

template <class T>
__global__ void add_bias_rows_kernel(int64_t n, int64_t cols, const T* b, T* y) {
  NN_GRID_LOOP(i, n) y[i] = T(float(y[i]) + float(b[i % cols]));
}

__global__ void add_bias_channels_kernel(int64_t n, int64_t channels, int64_t inner, const float* b, float* y) {
  NN_GRID_LOOP(i, n) y[i] += b[(i / inner) % channels];
}

template <class T>
void launch_strided_copy(cudaStream_t s, const StridedView& v, const T* src, T* dst, float scale, bool accum) {
  int64_t n = 1;
  for (int d = 0; d < v.ndim; ++d) n *= v.shape[d];
  launch_grid(s, "strided_copy_kernel", n, strided_copy_kernel<T>, v, src, dst, scale, accum);
}

template <class T>
void launch_reduce_sum(cudaStream_t s, const ReduceDims& d, const T* x, T* y, float scale, bool accum) {
  if (d.outputs == 0) return;
  const int64_t blocks = d.outputs < 65535 * 8 ? d.outputs : 65535 * 8;
  reduce_sum_kernel<T><<<unsigned(blocks), kThreads, 0, s>>>(d, x, y, scale, accum);
  check_launch("reduce_sum_kernel");
}

}  // namespace

void strided_copy(cudaStream_t s, const StridedView& v, const float* src, float* dst, float scale, bool accum) {
  launch_strided_copy(s, v, src, dst, scale, accum);
}
void strided_copy(cudaStream_t s, const StridedView& v, const __half* src, __half* dst, float scale, bool accum) {
  launch_strided_copy(s, v, src, dst, scale, accum);
}

void reduce_sum(cudaStream_t s, const ReduceDims& d, const float* x, float* y, float scale, bool accum) {
  launch_reduce_sum(s, d, x, y, scale, accum);
}
void reduce_sum(cudaStream_t s, const ReduceDims& d, const __half* x, __half* y, float scale, bool accum) {
  launch_reduce_sum(s, d, x, y, scale, accum);
}

template <class T>
void launch_add_bias_rows(cudaStream_t s, int64_t rows, int64_t cols, const T* b, T* y) {
  const int64_t n = rows * cols;
  launch_grid(s, "add_bias_rows_kernel", n, add_bias_rows_kernel<T>, cols, b, y);
}
void add_bias_rows(cudaStream_t s, int64_t rows, int64_t cols, const float* b, float* y) {
  launch_add_bias_rows(s, rows, cols, b, y);
}
void add_bias_rows(cudaStream_t s, int64_t rows, int64_t cols, const __half* b, __half* y) {
  launch_add_bias_rows(s, rows, cols, b, y);
}

void add_bias_channels(cudaStream_t s, int64_t outer, int64_t channels, int64_t inner, const float* b, float* y) {
  const int64_t n = outer * channels * inner;
  launch_grid(s, "add_bias_channels_kernel", n, add_bias_channels_kernel, channels, inner, b, y);
}

}  // namespace nn::cuda::k
