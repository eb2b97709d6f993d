// Convolution helper kernels: per-channel bias add and bias gradient, weight binarization (BinaryConnect /
// BinaryWeight convolutions). Templated on the storage type (float or __half); sums are kept in float.
#include <algorithm>

#include "cuda/kernels/conv.hpp"
#include "cuda/kernels/element_io.cuh"
#include "cuda/kernels/launch.cuh"

namespace nn::cuda::k {
namespace {

using io::from_float;
using io::to_float;

// Sum of v over the block (blockDim.x == kThreads, a power of two); every thread gets the total.
__device__ float block_sum(float v) {
  __shared__ float partial[kThreads];
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) partial[threadIdx.x] += partial[threadIdx.x + w];
    __syncthreads();
  }
  const float total = partial[0];
  __syncthreads();  // partial is reused by the next call
  return total;
}

__device__ inline float sign_of(float w, float zero_to) { return w > 0.f ? 1.f : w < 0.f ? -1.f : zero_to; }

unsigned blocks_for_rows(int64_t rows) { return unsigned(std::max<int64_t>(1, std::min<int64_t>(rows, 65535))); }

template <class T>
__global__ void bias_forward_kernel(int64_t n, int64_t channels, int64_t inner, const T* b, T* y) {
  NN_GRID_LOOP(i, n) y[i] = from_float<T>(to_float(y[i]) + to_float(b[(i / inner) % channels]));
}

// One block per channel (grid-stride over channels), threads stride over the (outer, inner) positions.
template <class T>
__global__ void bias_backward_kernel(int64_t outer, int64_t channels, int64_t inner, const T* dy, T* db,
                                     bool accum) {
  const int64_t count = outer * inner;
  for (int64_t c = blockIdx.x; c < channels; c += gridDim.x) {
    float sum = 0.f;
    for (int64_t r = threadIdx.x; r < count; r += blockDim.x) {
      const int64_t o = r / inner, i = r % inner;
      sum += to_float(dy[(o * channels + c) * inner + i]);
    }
    const float total = block_sum(sum);
    if (threadIdx.x == 0) db[c] = from_float<T>(accum ? to_float(db[c]) + total : total);
  }
}

template <class T>
__global__ void binarize_kernel(int64_t n, const T* w, T* bw, float zero_to) {
  NN_GRID_LOOP(i, n) bw[i] = from_float<T>(sign_of(to_float(w[i]), zero_to));
}

// One block per output row (grid-stride over rows).
template <class T>
__global__ void binarize_scaled_kernel(int64_t outputs, int64_t per_output, const T* w, T* bw, T* alpha, T* scaled,
                                       float zero_to) {
  for (int64_t o = blockIdx.x; o < outputs; o += gridDim.x) {
    const T* row = w + o * per_output;
    float sum = 0.f;
    for (int64_t i = threadIdx.x; i < per_output; i += blockDim.x) sum += fabsf(to_float(row[i]));
    const float a = block_sum(sum) / float(per_output);
    if (threadIdx.x == 0) alpha[o] = from_float<T>(a);
    for (int64_t i = threadIdx.x; i < per_output; i += blockDim.x) {
      const float b = sign_of(to_float(row[i]), zero_to);
      bw[o * per_output + i] = from_float<T>(b);
      scaled[o * per_output + i] = from_float<T>(b * a);
    }
  }
}

// One thread per column; neighbouring threads read neighbouring columns of each row. The mean divides the
// float sum in row order, as the CPU kernel.
template <class T>
__global__ void binarize_scaled_columns_kernel(int64_t rows, int64_t cols, const T* w, T* bw, T* alpha, T* scaled,
                                               float zero_to) {
  NN_GRID_LOOP(c, cols) {
    float sum = 0.f;
    for (int64_t r = 0; r < rows; ++r) sum += fabsf(to_float(w[r * cols + c]));
    const float a = sum / float(rows);
    alpha[c] = from_float<T>(a);
    for (int64_t r = 0; r < rows; ++r) {
      const float b = sign_of(to_float(w[r * cols + c]), zero_to);
      bw[r * cols + c] = from_float<T>(b);
      scaled[r * cols + c] = from_float<T>(b * a);
    }
  }
}

template <class T>
void binarize_scaled_columns_impl(cudaStream_t s, int64_t rows, int64_t cols, const T* w, T* bw, T* alpha,
                                  T* scaled, float zero_to) {
  if (rows == 0 || cols == 0) return;
  binarize_scaled_columns_kernel<T>
      <<<blocks_for(cols), kThreads, 0, s>>>(rows, cols, w, bw, alpha, scaled, zero_to);
  check_launch("binarize_weight_scaled_columns");
}

template <class T>
void bias_forward_impl(cudaStream_t s, int64_t outer, int64_t channels, int64_t inner, const T* b, T* y) {
  const int64_t n = outer * channels * inner;
  launch_grid(s, "conv_bias_forward", n, bias_forward_kernel<T>, channels, inner, b, y);
}

template <class T>
void bias_backward_impl(cudaStream_t s, int64_t outer, int64_t channels, int64_t inner, const T* dy, T* db,
                        bool accum) {
  if (channels == 0) return;
  bias_backward_kernel<T><<<blocks_for_rows(channels), kThreads, 0, s>>>(outer, channels, inner, dy, db, accum);
  check_launch("conv_bias_backward");
}

template <class T>
void binarize_impl(cudaStream_t s, int64_t n, const T* w, T* bw, float zero_to) {
  launch_grid(s, "binarize_weight", n, binarize_kernel<T>, w, bw, zero_to);
}

template <class T>
void binarize_scaled_impl(cudaStream_t s, int64_t outputs, int64_t per_output, const T* w, T* bw, T* alpha,
                          T* scaled, float zero_to) {
  if (outputs == 0 || per_output == 0) return;
  binarize_scaled_kernel<T>
      <<<blocks_for_rows(outputs), kThreads, 0, s>>>(outputs, per_output, w, bw, alpha, scaled, zero_to);
  check_launch("binarize_weight_scaled");
}

}  // namespace

void conv_bias_forward(cudaStream_t s, int64_t outer, int64_t channels, int64_t inner, const float* b, float* y) {
  bias_forward_impl(s, outer, channels, inner, b, y);
}
void conv_bias_forward(cudaStream_t s, int64_t outer, int64_t channels, int64_t inner, const __half* b,
                       __half* y) {
  bias_forward_impl(s, outer, channels, inner, b, y);
}
void conv_bias_backward(cudaStream_t s, int64_t outer, int64_t channels, int64_t inner, const float* dy, float* db,
                        bool accum) {
  bias_backward_impl(s, outer, channels, inner, dy, db, accum);
}
void conv_bias_backward(cudaStream_t s, int64_t outer, int64_t channels, int64_t inner, const __half* dy,
                        __half* db, bool accum) {
  bias_backward_impl(s, outer, channels, inner, dy, db, accum);
}
void binarize_weight(cudaStream_t s, int64_t n, const float* w, float* bw, float zero_to) {
  binarize_impl(s, n, w, bw, zero_to);
}
void binarize_weight(cudaStream_t s, int64_t n, const __half* w, __half* bw, float zero_to) {
  binarize_impl(s, n, w, bw, zero_to);
}
void binarize_weight_scaled(cudaStream_t s, int64_t outputs, int64_t per_output, const float* w, float* bw,
                            float* alpha, float* scaled, float zero_to) {
  binarize_scaled_impl(s, outputs, per_output, w, bw, alpha, scaled, zero_to);
}
void binarize_weight_scaled(cudaStream_t s, int64_t outputs, int64_t per_output, const __half* w, __half* bw,
                            __half* alpha, __half* scaled, float zero_to) {
  binarize_scaled_impl(s, outputs, per_output, w, bw, alpha, scaled, zero_to);
}

void binarize_weight_scaled_columns(cudaStream_t s, int64_t rows, int64_t cols, const float* w, float* bw,
                                    float* alpha, float* scaled, float zero_to) {
  binarize_scaled_columns_impl(s, rows, cols, w, bw, alpha, scaled, zero_to);
}
void binarize_weight_scaled_columns(cudaStream_t s, int64_t rows, int64_t cols, const __half* w, __half* bw,
                                    __half* alpha, __half* scaled, float zero_to) {
  binarize_scaled_columns_impl(s, rows, cols, w, bw, alpha, scaled, zero_to);
}

}  // namespace nn::cuda::k
