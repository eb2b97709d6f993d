// CUDA kernels of CReLU/CELU, PReLU, CategoricalCrossEntropy, TopNError, Embed, OneHot and Dropout.
#include "cuda/kernels/element_io.cuh"
#include "cuda/kernels/launch.cuh"
#include "cuda/kernels/math.hpp"

namespace nn::cuda::k {
namespace {

using io::load;
using io::store;

constexpr float kTiny = 1.17549435e-38f;  // FLT_MIN, the CPU losses' clamp

// ReLU or ELU and their derivatives (the halves of CReLU / CELU).
__device__ inline float concat_part_f(bool elu, float x, float alpha) {
  if (elu) return x >= 0.f ? x : alpha * expm1f(x);
  return x > 0.f ? x : 0.f;
}
__device__ inline float concat_part_df(bool elu, float x, float alpha) {
  if (elu) return x >= 0.f ? 1.f : alpha * expf(x);
  return x > 0.f ? 1.f : 0.f;
}

template <class T>
__global__ void concat_activation_forward_kernel(bool elu, int64_t outer, int64_t block, const T* x, T* y,
                                                 float alpha) {
  NN_GRID_LOOP(i, outer * block) {
    const int64_t o = i / block, j = i % block;
    const float v = load(x, i);
    T* pos = y + 2 * o * block;
    store(pos, j, concat_part_f(elu, v, alpha));
    store(pos + block, j, concat_part_f(elu, -v, alpha));
  }
}

template <class T>
__global__ void concat_activation_backward_kernel(bool elu, int64_t outer, int64_t block, const T* x, const T* dy,
                                                  T* dx, float alpha, bool accum) {
  NN_GRID_LOOP(i, outer * block) {
    const int64_t o = i / block, j = i % block;
    const float v = load(x, i);
    const T* dpos = dy + 2 * o * block;
    const float g =
        load(dpos, j) * concat_part_df(elu, v, alpha) - load(dpos + block, j) * concat_part_df(elu, -v, alpha);
    store(dx, i, accum ? load(dx, i) + g : g);
  }
}

template <class T>
__global__ void prelu_forward_kernel(int64_t n, int64_t channels, int64_t inner, const T* x, const T* w, T* y) {
  NN_GRID_LOOP(i, n) {
    const float v = load(x, i);
    store(y, i, v >= 0.f ? v : v * load(w, (i / inner) % channels));
  }
}

template <class T>
__global__ void prelu_backward_input_kernel(int64_t n, int64_t channels, int64_t inner, const T* x, const T* w,
                                            const T* dy, T* dx, bool accum) {
  NN_GRID_LOOP(i, n) {
    const float g = load(dy, i), v = load(x, i);
    const float d = v >= 0.f ? g : g * load(w, (i / inner) % channels);
    store(dx, i, accum ? load(dx, i) + d : d);
  }
}

// Channel c (grid y) of the (outer, channels, inner) layout holds n / channels elements; the blocks along
// grid x each sum a strided share, reduce in shared memory and add their total atomically.
template <class T>
__global__ void prelu_backward_slope_kernel(int64_t per_channel, int64_t channels, int64_t inner, const T* x,
                                            const T* dy, float* dw_sum) {
  __shared__ float partial[kThreads];
  for (int64_t c = blockIdx.y; c < channels; c += gridDim.y) {
    float sum = 0.f;
    for (int64_t m = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; m < per_channel;
         m += int64_t(blockDim.x) * gridDim.x) {
      const int64_t i = ((m / inner) * channels + c) * inner + m % inner;
      const float v = load(x, i);
      if (v < 0.f) sum += load(dy, i) * v;
    }
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = kThreads / 2; stride > 0; stride >>= 1) {
      if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
      __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(dw_sum + c, partial[0]);
    __syncthreads();  // partial is reused for the next channel
  }
}

__device__ inline int64_t line_offset(int64_t l, int64_t size, int64_t inner) {
  return (l / inner) * size * inner + l % inner;
}

__global__ void categorical_cross_entropy_forward_kernel(int64_t lines, int64_t size, int64_t inner,
                                                         const float* x, const float* label, float* y) {
  NN_GRID_LOOP(l, lines) {
    const int64_t k = int64_t(label[l]);
    if (k < 0 || k >= size) continue;  // rejected on the host before the launch
    y[l] = -logf(fmaxf(x[line_offset(l, size, inner) + k * inner], kTiny));
  }
}

__global__ void categorical_cross_entropy_backward_kernel(int64_t lines, int64_t size, int64_t inner,
                                                          const float* x, const float* label, const float* dy,
                                                          float* dx) {
  NN_GRID_LOOP(l, lines) {
    const int64_t k = int64_t(label[l]);
    if (k < 0 || k >= size) continue;
    const int64_t i = line_offset(l, size, inner) + k * inner;
    dx[i] -= dy[l] / fmaxf(x[i], kTiny);
  }
}

__global__ void top_n_error_forward_kernel(int64_t lines, int64_t size, int64_t inner, const float* x,
                                           const float* label, int64_t n, float* y) {
  NN_GRID_LOOP(l, lines) {
    const int64_t k = int64_t(label[l]);
    if (k < 0 || k >= size) continue;
    const float* xl = x + line_offset(l, size, inner);
    const float threshold = xl[k * inner];
    int64_t count = 0;
    for (int64_t c = 0; c < size; ++c) count += xl[c * inner] >= threshold ? 1 : 0;
    y[l] = count > n ? 1.f : 0.f;
  }
}

__global__ void embed_forward_kernel(int64_t n, int64_t rows, int64_t row, const float* index, const float* w,
                                     float* y) {
  NN_GRID_LOOP(t, n * row) {
    const int64_t k = int64_t(index[t / row]);
    y[t] = (k >= 0 && k < rows) ? w[k * row + t % row] : 0.f;
  }
}

__global__ void embed_backward_kernel(int64_t n, int64_t rows, int64_t row, const float* index, const float* dy,
                                      float* dw) {
  NN_GRID_LOOP(t, n * row) {
    const int64_t k = int64_t(index[t / row]);
    if (k >= 0 && k < rows) atomicAdd(dw + k * row + t % row, dy[t]);
  }
}

__global__ void one_hot_forward_kernel(int64_t num, OneHotShape shape, int64_t block, const float* x, float* y) {
  NN_GRID_LOOP(i, num) {
    int64_t addr = 0;
    bool ok = true;
    for (int d = 0; d < shape.dim; ++d) {
      const int64_t v = int64_t(lroundf(x[i * shape.dim + d]));
      ok = ok && v >= 0 && v < shape.size[d];
      addr = addr * shape.size[d] + v;
    }
    if (ok) y[i * block + addr] = 1.f;
  }
}

// splitmix64's output function: a bijective 64-bit mix.
__device__ inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
// Element i's mask value: scale when kept, 0 when dropped (uniform from the top 24 bits of the hash).
__device__ inline float dropout_mask(uint64_t key, int64_t i, float p, float scale) {
  const uint64_t h = mix64(key + (uint64_t(i) + 1) * 0x9e3779b97f4a7c15ull);
  const float u = float(h >> 40) * (1.f / 16777216.f);
  return u >= p ? scale : 0.f;
}

template <class T>
__global__ void dropout_forward_kernel(int64_t n, const T* x, T* y, float p, float scale, uint64_t key) {
  NN_GRID_LOOP(i, n) store(y, i, load(x, i) * dropout_mask(key, i, p, scale));
}

template <class T>
__global__ void dropout_backward_kernel(int64_t n, const T* dy, T* dx, float p, float scale, uint64_t key,
                                        bool accum) {
  NN_GRID_LOOP(i, n) {
    const float g = load(dy, i) * dropout_mask(key, i, p, scale);
    store(dx, i, accum ? load(dx, i) + g : g);
  }
}

}  // namespace

template <class T>
void concat_activation_forward(cudaStream_t s, bool elu, int64_t outer, int64_t block, const T* x, T* y,
                               float alpha) {
  const int64_t n = outer * block;
  if (n == 0) return;
  concat_activation_forward_kernel<<<blocks_for(n), kThreads, 0, s>>>(elu, outer, block, x, y, alpha);
  check_launch("concat_activation_forward_kernel");
}

template <class T>
void concat_activation_backward(cudaStream_t s, bool elu, int64_t outer, int64_t block, const T* x, const T* dy,
                                T* dx, float alpha, bool accum) {
  const int64_t n = outer * block;
  if (n == 0) return;
  concat_activation_backward_kernel<<<blocks_for(n), kThreads, 0, s>>>(elu, outer, block, x, dy, dx, alpha, accum);
  check_launch("concat_activation_backward_kernel");
}

template <class T>
void prelu_forward(cudaStream_t s, int64_t n, int64_t channels, int64_t inner, const T* x, const T* w, T* y) {
  launch_grid(s, "prelu_forward_kernel", n, prelu_forward_kernel<T>, channels, inner, x, w, y);
}

template <class T>
void prelu_backward_input(cudaStream_t s, int64_t n, int64_t channels, int64_t inner, const T* x, const T* w,
                          const T* dy, T* dx, bool accum) {
  launch_grid(s, "prelu_backward_input_kernel", n, prelu_backward_input_kernel<T>, channels, inner, x, w, dy, dx,
              accum);
}

template <class T>
void prelu_backward_slope(cudaStream_t s, int64_t n, int64_t channels, int64_t inner, const T* x, const T* dy,
                          float* dw_sum) {
  if (n == 0 || channels == 0) return;
  const int64_t per_channel = n / channels;
  // About four elements per thread, at most 128 blocks per channel; at most 65535 channel rows of blocks.
  int64_t gx = (per_channel + 4 * kThreads - 1) / (4 * kThreads);
  gx = gx < 1 ? 1 : (gx > 128 ? 128 : gx);
  const int64_t gy = channels > 65535 ? 65535 : channels;
  prelu_backward_slope_kernel<<<dim3(unsigned(gx), unsigned(gy)), kThreads, 0, s>>>(per_channel, channels, inner,
                                                                                    x, dy, dw_sum);
  check_launch("prelu_backward_slope_kernel");
}

void categorical_cross_entropy_forward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* x,
                                       const float* label, float* y) {
  const int64_t lines = outer * inner;
  if (lines == 0) return;
  categorical_cross_entropy_forward_kernel<<<blocks_for(lines), kThreads, 0, s>>>(lines, size, inner, x, label, y);
  check_launch("categorical_cross_entropy_forward_kernel");
}

void categorical_cross_entropy_backward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* x,
                                        const float* label, const float* dy, float* dx) {
  const int64_t lines = outer * inner;
  if (lines == 0) return;
  categorical_cross_entropy_backward_kernel<<<blocks_for(lines), kThreads, 0, s>>>(lines, size, inner, x, label,
                                                                                   dy, dx);
  check_launch("categorical_cross_entropy_backward_kernel");
}

void top_n_error_forward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* x,
                         const float* label, int64_t n, float* y) {
  const int64_t lines = outer * inner;
  if (lines == 0) return;
  top_n_error_forward_kernel<<<blocks_for(lines), kThreads, 0, s>>>(lines, size, inner, x, label, n, y);
  check_launch("top_n_error_forward_kernel");
}

void embed_forward(cudaStream_t s, int64_t n, int64_t rows, int64_t row, const float* index, const float* w,
                   float* y) {
  if (n * row == 0) return;
  embed_forward_kernel<<<blocks_for(n * row), kThreads, 0, s>>>(n, rows, row, index, w, y);
  check_launch("embed_forward_kernel");
}

void embed_backward(cudaStream_t s, int64_t n, int64_t rows, int64_t row, const float* index, const float* dy,
                    float* dw) {
  if (n * row == 0) return;
  embed_backward_kernel<<<blocks_for(n * row), kThreads, 0, s>>>(n, rows, row, index, dy, dw);
  check_launch("embed_backward_kernel");
}

void one_hot_forward(cudaStream_t s, int64_t num, const OneHotShape& shape, int64_t block, const float* x,
                     float* y) {
  if (num == 0) return;
  one_hot_forward_kernel<<<blocks_for(num), kThreads, 0, s>>>(num, shape, block, x, y);
  check_launch("one_hot_forward_kernel");
}

template <class T>
void dropout_forward(cudaStream_t s, int64_t n, const T* x, T* y, float p, float scale, uint64_t key) {
  launch_grid(s, "dropout_forward_kernel", n, dropout_forward_kernel<T>, x, y, p, scale, key);
}

template <class T>
void dropout_backward(cudaStream_t s, int64_t n, const T* dy, T* dx, float p, float scale, uint64_t key,
                      bool accum) {
  launch_grid(s, "dropout_backward_kernel", n, dropout_backward_kernel<T>, dy, dx, p, scale, key, accum);
}

#define NN_INSTANTIATE_MATH(T)                                                                                 \
  template void concat_activation_forward<T>(cudaStream_t, bool, int64_t, int64_t, const T*, T*, float);       \
  template void concat_activation_backward<T>(cudaStream_t, bool, int64_t, int64_t, const T*, const T*, T*,    \
                                              float, bool);                                                    \
  template void prelu_forward<T>(cudaStream_t, int64_t, int64_t, int64_t, const T*, const T*, T*);             \
  template void prelu_backward_input<T>(cudaStream_t, int64_t, int64_t, int64_t, const T*, const T*, const T*, \
                                        T*, bool);                                                             \
  template void prelu_backward_slope<T>(cudaStream_t, int64_t, int64_t, int64_t, const T*, const T*, float*);  \
  template void dropout_forward<T>(cudaStream_t, int64_t, const T*, T*, float, float, uint64_t);               \
  template void dropout_backward<T>(cudaStream_t, int64_t, const T*, T*, float, float, uint64_t, bool);
NN_INSTANTIATE_MATH(float)
NN_INSTANTIATE_MATH(__half)
#undef NN_INSTANTIATE_MATH

}  // namespace nn::cuda::k
