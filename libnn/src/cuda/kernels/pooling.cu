// Pooling kernels with nnabla's window rules (Max/Average/Sum, global average, unpooling): one thread per
// output element forward; backward gathers per input element, so no atomics and the CPU's summation order.
#include "cuda/kernels/element_io.cuh"
#include "cuda/kernels/launch.cuh"
#include "cuda/kernels/pool_norm.hpp"

namespace nn::cuda::k {
namespace {

using io::from_float;
using io::to_float;

// The clamped window [lo, hi) of output o along axis a, and its length counting the padding.
struct Window {
  int64_t lo, hi, padded;
};
__device__ inline Window window_of(const PoolDims& d, int a, int64_t o) {
  const int64_t start = o * d.stride[a] - d.pad[a];
  const int64_t end = min(start + d.kernel[a], d.in[a] + d.pad[a]);
  const int64_t lo = max(start, int64_t(0));
  return {lo, max(min(end, d.in[a]), lo), end - start};
}

// Splits a row-major offset within one map into per-axis indices.
__device__ inline void split_index(int64_t offset, int nd, const int64_t* extent, int64_t* idx) {
  for (int a = nd - 1; a >= 0; --a) {
    idx[a] = offset % extent[a];
    offset /= extent[a];
  }
}

// Advances idx through the box [lo, hi) in row-major order; false after the last position.
__device__ inline bool next_in_box(int nd, const int64_t* lo, const int64_t* hi, int64_t* idx) {
  for (int a = nd - 1; a >= 0; --a) {
    if (++idx[a] < hi[a]) return true;
    idx[a] = lo[a];
  }
  return false;
}

__device__ inline int64_t offset_of(int nd, const int64_t* extent, const int64_t* idx) {
  int64_t off = 0;
  for (int a = 0; a < nd; ++a) off = off * extent[a] + idx[a];
  return off;
}

// Clamped windows of output index o; false when one of them is empty.
__device__ inline bool output_box(const PoolDims& d, const int64_t* o, int64_t* lo, int64_t* hi) {
  bool any = true;
  for (int a = 0; a < d.nd; ++a) {
    const Window w = window_of(d, a, o[a]);
    lo[a] = w.lo;
    hi[a] = w.hi;
    any = any && w.lo < w.hi;
  }
  return any;
}

// The outputs whose (clamped) window holds input index p of every axis: [lo, hi) per axis; false if none.
// p lies in window o exactly when o * stride - pad <= p < o * stride - pad + kernel (the clamp to
// in + pad never cuts below an input position).
__device__ inline bool covering_outputs(const PoolDims& d, const int64_t* p, int64_t* lo, int64_t* hi) {
  bool any = true;
  for (int a = 0; a < d.nd; ++a) {
    const int64_t s = d.stride[a];
    const int64_t num = p[a] + d.pad[a] - d.kernel[a];  // o > num / s
    const int64_t floor_div = num >= 0 ? num / s : -((-num + s - 1) / s);
    lo[a] = max(floor_div + 1, int64_t(0));
    hi[a] = min((p[a] + d.pad[a]) / s + 1, d.out[a]);
    any = any && lo[a] < hi[a];
  }
  return any;
}

template <class T>
__global__ void max_pool_forward_kernel(PoolDims d, const T* x, T* y, int32_t* argmax) {
  NN_GRID_LOOP(i, d.maps * d.out_size) {
    const int64_t m = i / d.out_size;
    int64_t o[kMaxPoolDims], lo[kMaxPoolDims], hi[kMaxPoolDims], idx[kMaxPoolDims];
    split_index(i % d.out_size, d.nd, d.out, o);
    float best = 0.f;
    int64_t arg = -1;
    if (output_box(d, o, lo, hi)) {
      const T* xm = x + m * d.in_size;
      for (int a = 0; a < d.nd; ++a) idx[a] = lo[a];
      do {
        const int64_t off = offset_of(d.nd, d.in, idx);
        const float v = to_float(xm[off]);
        if (arg < 0 || v > best) {  // first maximum wins, as the CPU kernel
          best = v;
          arg = off;
        }
      } while (next_in_box(d.nd, lo, hi, idx));
    }
    y[i] = from_float<T>(arg < 0 ? 0.f : best);
    argmax[i] = int32_t(arg);
  }
}

template <class T>
__global__ void max_pool_backward_kernel(PoolDims d, const int32_t* argmax, const T* dy, T* dx, bool accum) {
  NN_GRID_LOOP(i, d.maps * d.in_size) {
    const int64_t m = i / d.in_size, xi = i % d.in_size;
    int64_t p[kMaxPoolDims], lo[kMaxPoolDims], hi[kMaxPoolDims], o[kMaxPoolDims];
    split_index(xi, d.nd, d.in, p);
    float sum = accum ? to_float(dx[i]) : 0.f;
    if (covering_outputs(d, p, lo, hi)) {
      const int32_t* am = argmax + m * d.out_size;
      const T* dym = dy + m * d.out_size;
      for (int a = 0; a < d.nd; ++a) o[a] = lo[a];
      do {
        const int64_t yi = offset_of(d.nd, d.out, o);
        if (am[yi] == xi) sum += to_float(dym[yi]);
      } while (next_in_box(d.nd, lo, hi, o));
    }
    dx[i] = from_float<T>(sum);
  }
}

// 1 / window size for averages (padding counted with including_pad; 0 for an empty window), 1 for sums.
__device__ inline float window_scale(const PoolDims& d, const int64_t* o, bool average, bool including_pad) {
  if (!average) return 1.f;
  int64_t n = 1;
  for (int a = 0; a < d.nd; ++a) {
    const Window w = window_of(d, a, o[a]);
    n *= including_pad ? w.padded : w.hi - w.lo;
  }
  return n > 0 ? 1.f / float(n) : 0.f;
}

template <class T>
__global__ void window_sum_forward_kernel(PoolDims d, bool average, bool including_pad, const T* x, T* y) {
  NN_GRID_LOOP(i, d.maps * d.out_size) {
    const int64_t m = i / d.out_size;
    int64_t o[kMaxPoolDims], lo[kMaxPoolDims], hi[kMaxPoolDims], idx[kMaxPoolDims];
    split_index(i % d.out_size, d.nd, d.out, o);
    float sum = 0.f;
    if (output_box(d, o, lo, hi)) {
      const T* xm = x + m * d.in_size;
      for (int a = 0; a < d.nd; ++a) idx[a] = lo[a];
      do {
        sum += to_float(xm[offset_of(d.nd, d.in, idx)]);
      } while (next_in_box(d.nd, lo, hi, idx));
    }
    y[i] = from_float<T>(sum * window_scale(d, o, average, including_pad));
  }
}

template <class T>
__global__ void window_sum_backward_kernel(PoolDims d, bool average, bool including_pad, const T* dy, T* dx,
                                           bool accum) {
  NN_GRID_LOOP(i, d.maps * d.in_size) {
    const int64_t m = i / d.in_size;
    int64_t p[kMaxPoolDims], lo[kMaxPoolDims], hi[kMaxPoolDims], o[kMaxPoolDims];
    split_index(i % d.in_size, d.nd, d.in, p);
    float sum = accum ? to_float(dx[i]) : 0.f;
    if (covering_outputs(d, p, lo, hi)) {
      const T* dym = dy + m * d.out_size;
      for (int a = 0; a < d.nd; ++a) o[a] = lo[a];
      do {
        sum += to_float(dym[offset_of(d.nd, d.out, o)]) * window_scale(d, o, average, including_pad);
      } while (next_in_box(d.nd, lo, hi, o));
    }
    dx[i] = from_float<T>(sum);
  }
}

// One block per map (grid-stride over maps), threads stride over the map's elements.
template <class T>
__global__ void global_average_forward_kernel(int64_t maps, int64_t area, const T* x, T* y) {
  __shared__ float partial[kThreads];
  const float inv = area > 0 ? 1.f / float(area) : 0.f;
  for (int64_t m = blockIdx.x; m < maps; m += gridDim.x) {
    const T* xm = x + m * area;
    float sum = 0.f;
    for (int64_t j = threadIdx.x; j < area; j += blockDim.x) sum += to_float(xm[j]);
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
      if (threadIdx.x < w) partial[threadIdx.x] += partial[threadIdx.x + w];
      __syncthreads();
    }
    if (threadIdx.x == 0) y[m] = from_float<T>(partial[0] * inv);
    __syncthreads();
  }
}

template <class T>
__global__ void global_average_backward_kernel(int64_t maps, int64_t area, const T* dy, T* dx, bool accum) {
  const float inv = area > 0 ? 1.f / float(area) : 0.f;
  NN_GRID_LOOP(i, maps * area) {
    const float g = to_float(dy[i / area]) * inv;
    dx[i] = from_float<T>(accum ? to_float(dx[i]) + g : g);
  }
}

template <class T>
__global__ void unpool_forward_kernel(PoolDims d, const T* x, T* y) {
  NN_GRID_LOOP(i, d.maps * d.out_size) {
    const int64_t m = i / d.out_size;
    int64_t o[kMaxPoolDims];
    split_index(i % d.out_size, d.nd, d.out, o);
    for (int a = 0; a < d.nd; ++a) o[a] /= d.kernel[a];
    y[i] = x[m * d.in_size + offset_of(d.nd, d.in, o)];
  }
}

// dx gathers its kernel-sized block of dy in row-major order (the CPU's ascending output order).
template <class T>
__global__ void unpool_backward_kernel(PoolDims d, const T* dy, T* dx, bool accum) {
  NN_GRID_LOOP(i, d.maps * d.in_size) {
    const int64_t m = i / d.in_size;
    int64_t p[kMaxPoolDims], lo[kMaxPoolDims], hi[kMaxPoolDims], o[kMaxPoolDims];
    split_index(i % d.in_size, d.nd, d.in, p);
    for (int a = 0; a < d.nd; ++a) {
      lo[a] = o[a] = p[a] * d.kernel[a];
      hi[a] = lo[a] + d.kernel[a];
    }
    const T* dym = dy + m * d.out_size;
    float sum = accum ? to_float(dx[i]) : 0.f;
    do {
      sum += to_float(dym[offset_of(d.nd, d.out, o)]);
    } while (next_in_box(d.nd, lo, hi, o));
    dx[i] = from_float<T>(sum);
  }
}

}  // namespace

template <class T>
void max_pool_forward(cudaStream_t s, const PoolDims& d, const T* x, T* y, int32_t* argmax) {
  const int64_t n = d.maps * d.out_size;
  if (n == 0) return;
  max_pool_forward_kernel<T><<<blocks_for(n), kThreads, 0, s>>>(d, x, y, argmax);
  check_launch("max_pool_forward_kernel");
}

template <class T>
void max_pool_backward(cudaStream_t s, const PoolDims& d, const int32_t* argmax, const T* dy, T* dx, bool accum) {
  const int64_t n = d.maps * d.in_size;
  if (n == 0) return;
  max_pool_backward_kernel<T><<<blocks_for(n), kThreads, 0, s>>>(d, argmax, dy, dx, accum);
  check_launch("max_pool_backward_kernel");
}

template <class T>
void window_sum_forward(cudaStream_t s, const PoolDims& d, bool average, bool including_pad, const T* x, T* y) {
  const int64_t n = d.maps * d.out_size;
  if (n == 0) return;
  window_sum_forward_kernel<T><<<blocks_for(n), kThreads, 0, s>>>(d, average, including_pad, x, y);
  check_launch("window_sum_forward_kernel");
}

template <class T>
void window_sum_backward(cudaStream_t s, const PoolDims& d, bool average, bool including_pad, const T* dy, T* dx,
                         bool accum) {
  const int64_t n = d.maps * d.in_size;
  if (n == 0) return;
  window_sum_backward_kernel<T><<<blocks_for(n), kThreads, 0, s>>>(d, average, including_pad, dy, dx, accum);
  check_launch("window_sum_backward_kernel");
}

template <class T>
void global_average_forward(cudaStream_t s, int64_t maps, int64_t area, const T* x, T* y) {
  if (maps == 0) return;
  const unsigned blocks = unsigned(maps < 65535 * 8 ? maps : 65535 * 8);
  global_average_forward_kernel<T><<<blocks, kThreads, 0, s>>>(maps, area, x, y);
  check_launch("global_average_forward_kernel");
}

template <class T>
void global_average_backward(cudaStream_t s, int64_t maps, int64_t area, const T* dy, T* dx, bool accum) {
  const int64_t n = maps * area;
  if (n == 0) return;
  global_average_backward_kernel<T><<<blocks_for(n), kThreads, 0, s>>>(maps, area, dy, dx, accum);
  check_launch("global_average_backward_kernel");
}

template <class T>
void unpool_forward(cudaStream_t s, const PoolDims& d, const T* x, T* y) {
  const int64_t n = d.maps * d.out_size;
  if (n == 0) return;
  unpool_forward_kernel<T><<<blocks_for(n), kThreads, 0, s>>>(d, x, y);
  check_launch("unpool_forward_kernel");
}

template <class T>
void unpool_backward(cudaStream_t s, const PoolDims& d, const T* dy, T* dx, bool accum) {
  const int64_t n = d.maps * d.in_size;
  if (n == 0) return;
  unpool_backward_kernel<T><<<blocks_for(n), kThreads, 0, s>>>(d, dy, dx, accum);
  check_launch("unpool_backward_kernel");
}

#define NN_POOLING_INSTANTIATE(T)                                                                        \
  template void max_pool_forward<T>(cudaStream_t, const PoolDims&, const T*, T*, int32_t*);              \
  template void max_pool_backward<T>(cudaStream_t, const PoolDims&, const int32_t*, const T*, T*, bool); \
  template void window_sum_forward<T>(cudaStream_t, const PoolDims&, bool, bool, const T*, T*);          \
  template void window_sum_backward<T>(cudaStream_t, const PoolDims&, bool, bool, const T*, T*, bool);   \
  template void global_average_forward<T>(cudaStream_t, int64_t, int64_t, const T*, T*);                 \
  template void global_average_backward<T>(cudaStream_t, int64_t, int64_t, const T*, T*, bool);          \
  template void unpool_forward<T>(cudaStream_t, const PoolDims&, const T*, T*);                          \
  template void unpool_backward<T>(cudaStream_t, const PoolDims&, const T*, T*, bool);
NN_POOLING_INSTANTIATE(float)
NN_POOLING_INSTANTIATE(__half)
#undef NN_POOLING_INSTANTIATE

}  // namespace nn::cuda::k
