// Max/Min with their index, Prod, and per-axis table remaps (Pad, RandomFlip, RandomShift), for float and __half
// storage with float (Prod: double) arithmetic.
#include "cuda/kernels/launch.cuh"
#include "cuda/kernels/shape.hpp"

namespace nn::cuda::k {
namespace {

__device__ inline int64_t kept_offset(const ReduceDims& d, int64_t o) {
  return strided_offset(o, d.kept_ndim, d.kept_shape, d.kept_strides);
}
__device__ inline int64_t reduced_offset(const ReduceDims& d, int64_t r) {
  return strided_offset(r, d.reduced_ndim, d.reduced_shape, d.reduced_strides);
}

unsigned blocks_per_output(int64_t outputs) { return unsigned(outputs < 65535 * 8 ? outputs : 65535 * 8); }

// One block per output. Each thread scans its share skipping NaN (strict comparisons keep the first extreme);
// the tree keeps the extreme with the smaller reduced index on ties. A NaN at reduced index 0 wins, as in the
// sequential scan of the CPU kernel (which starts from element 0 and never replaces it by a comparison).
template <class T, bool kMax>
__global__ void arg_extreme_kernel(ReduceDims d, const T* x, T* y, float* index, int64_t* selected) {
  __shared__ float best_value[kThreads];
  __shared__ int64_t best_at[kThreads];  // -1: none found
  const int tid = int(threadIdx.x);
  for (int64_t o = blockIdx.x; o < d.outputs; o += gridDim.x) {
    const int64_t base = kept_offset(d, o);
    float m = 0.f;
    int64_t at = -1;
    for (int64_t r = tid; r < d.reduced; r += blockDim.x) {
      const float v = load_f(x + base + reduced_offset(d, r));
      if (isnan(v)) continue;
      if (at < 0 || (kMax ? v > m : v < m)) {
        m = v;
        at = r;
      }
    }
    best_value[tid] = m;
    best_at[tid] = at;
    __syncthreads();
    for (int w = int(blockDim.x) / 2; w > 0; w /= 2) {
      if (tid < w && best_at[tid + w] >= 0) {
        const float v = best_value[tid + w], mine = best_value[tid];
        const int64_t other = best_at[tid + w], mine_at = best_at[tid];
        if (mine_at < 0 || (kMax ? v > mine : v < mine) || (v == mine && other < mine_at)) {
          best_value[tid] = v;
          best_at[tid] = other;
        }
      }
      __syncthreads();
    }
    if (tid == 0) {
      int64_t r = best_at[0];
      float v = best_value[0];
      const float first = load_f(x + base);
      if (r < 0 || isnan(first)) {
        r = 0;
        v = first;
      }
      if (y) store_f(y + o, v);
      if (index) index[o] = float(r);
      selected[o] = base + reduced_offset(d, r);
    }
    __syncthreads();
  }
}

template <class T>
__global__ void scatter_selected_kernel(int64_t n, const int64_t* selected, const T* dy, T* dx) {
  NN_GRID_LOOP(o, n) {
    T* p = dx + selected[o];
    store_f(p, load_f(p) + load_f(dy + o));
  }
}

template <class T>
__global__ void prod_forward_kernel(ReduceDims d, const T* x, T* y) {
  __shared__ double partial[kThreads];
  const int tid = int(threadIdx.x);
  for (int64_t o = blockIdx.x; o < d.outputs; o += gridDim.x) {
    const int64_t base = kept_offset(d, o);
    double p = 1.0;
    for (int64_t r = tid; r < d.reduced; r += blockDim.x) p *= double(load_f(x + base + reduced_offset(d, r)));
    partial[tid] = p;
    __syncthreads();
    for (int w = int(blockDim.x) / 2; w > 0; w /= 2) {
      if (tid < w) partial[tid] *= partial[tid + w];
      __syncthreads();
    }
    if (tid == 0) store_f(y + o, float(partial[0]));
    __syncthreads();
  }
}

// Per output: the product of the non-zero elements, the zero count and the last zero's position; then every
// element gets dy * (product of the others): nonzero / x without zeros, nonzero at the single zero, else 0.
template <class T>
__global__ void prod_backward_kernel(ReduceDims d, const T* x, const T* dy, T* dx, bool accum) {
  __shared__ double product[kThreads];
  __shared__ int64_t zeros[kThreads], zero_at[kThreads];
  const int tid = int(threadIdx.x);
  for (int64_t o = blockIdx.x; o < d.outputs; o += gridDim.x) {
    const int64_t base = kept_offset(d, o);
    double p = 1.0;
    int64_t z = 0, at = -1;
    for (int64_t r = tid; r < d.reduced; r += blockDim.x) {
      const float v = load_f(x + base + reduced_offset(d, r));
      if (v == 0.f) {
        ++z;
        at = r;
      } else {
        p *= double(v);
      }
    }
    product[tid] = p;
    zeros[tid] = z;
    zero_at[tid] = at;
    __syncthreads();
    for (int w = int(blockDim.x) / 2; w > 0; w /= 2) {
      if (tid < w) {
        product[tid] *= product[tid + w];
        zeros[tid] += zeros[tid + w];
        if (zero_at[tid + w] > zero_at[tid]) zero_at[tid] = zero_at[tid + w];
      }
      __syncthreads();
    }
    const double nonzero = product[0];
    const int64_t count = zeros[0], last_zero = zero_at[0];
    const float g_out = load_f(dy + o);
    for (int64_t r = tid; r < d.reduced; r += blockDim.x) {
      const int64_t off = base + reduced_offset(d, r);
      const float v = load_f(x + off);
      const double others = count == 0 ? nonzero / double(v) : (count == 1 && r == last_zero ? nonzero : 0.0);
      const float g = float(double(g_out) * others);
      store_f(dx + off, accum ? load_f(dx + off) + g : g);
    }
    __syncthreads();  // the shared arrays are rewritten for the next output
  }
}

__device__ inline int64_t inner_size(const int64_t* shape, int ndim) {
  int64_t n = 1;
  for (int a = 0; a < ndim; ++a) n *= shape[a];
  return n;
}

template <class T>
__global__ void remap_forward_kernel(int64_t n, RemapDims d, RemapTables t, const T* x, T* y, float fill) {
  const int64_t inner_out = inner_size(d.out_shape, d.ndim), inner_in = inner_size(d.in_shape, d.ndim);
  NN_GRID_LOOP(i, n) {
    const int64_t s = i / inner_out;
    const int64_t* table = t.forward + s * d.forward_size;
    int64_t rest = i - s * inner_out, off = 0, stride = 1;
    bool inside = true;
    for (int a = d.ndim - 1; a >= 0 && inside; --a) {
      const int64_t j = table[d.forward_start[a] + rest % d.out_shape[a]];
      rest /= d.out_shape[a];
      inside = j >= 0;
      off += j * stride;
      stride *= d.in_shape[a];
    }
    store_f(y + i, inside ? load_f(x + s * inner_in + off) : fill);
  }
}

// One thread per input element: sums dy over the output elements that read it, in increasing output order.
template <class T>
__global__ void remap_backward_kernel(int64_t n, RemapDims d, RemapTables t, const T* dy, T* dx, bool accum) {
  const int64_t inner_out = inner_size(d.out_shape, d.ndim), inner_in = inner_size(d.in_shape, d.ndim);
  NN_GRID_LOOP(j, n) {
    const int64_t s = j / inner_in;
    const int64_t* first = t.first + s * d.first_size;
    const int64_t* sources = t.sources + s * d.sources_size;
    int64_t lo[kMaxDims], hi[kMaxDims], pos[kMaxDims], out_stride[kMaxDims];
    int64_t rest = j - s * inner_in, stride = 1;
    bool any = true;
    for (int a = d.ndim - 1; a >= 0; --a) {
      const int64_t idx = rest % d.in_shape[a];
      rest /= d.in_shape[a];
      lo[a] = pos[a] = first[d.first_start[a] + idx];
      hi[a] = first[d.first_start[a] + idx + 1];
      any = any && lo[a] < hi[a];
      out_stride[a] = stride;
      stride *= d.out_shape[a];
    }
    float sum = 0.f;
    while (any) {
      int64_t off = 0;
      for (int a = 0; a < d.ndim; ++a) off += sources[pos[a]] * out_stride[a];
      sum += load_f(dy + s * inner_out + off);
      int a = d.ndim - 1;
      for (; a >= 0; --a) {
        if (++pos[a] < hi[a]) break;
        pos[a] = lo[a];
      }
      any = a >= 0;
    }
    store_f(dx + j, accum ? load_f(dx + j) + sum : sum);
  }
}

template <class T>
void launch_arg_extreme(cudaStream_t s, const ReduceDims& d, bool is_max, const T* x, T* y, float* index,
                        int64_t* selected) {
  if (d.outputs == 0 || d.reduced == 0) return;
  if (is_max)
    arg_extreme_kernel<T, true><<<blocks_per_output(d.outputs), kThreads, 0, s>>>(d, x, y, index, selected);
  else
    arg_extreme_kernel<T, false><<<blocks_per_output(d.outputs), kThreads, 0, s>>>(d, x, y, index, selected);
  check_launch("arg_extreme_kernel");
}

template <class T>
void launch_scatter_selected(cudaStream_t s, int64_t outputs, const int64_t* selected, const T* dy, T* dx) {
  if (outputs == 0) return;
  scatter_selected_kernel<T><<<blocks_for(outputs), kThreads, 0, s>>>(outputs, selected, dy, dx);
  check_launch("scatter_selected_kernel");
}

template <class T>
void launch_prod_forward(cudaStream_t s, const ReduceDims& d, const T* x, T* y) {
  if (d.outputs == 0) return;
  prod_forward_kernel<T><<<blocks_per_output(d.outputs), kThreads, 0, s>>>(d, x, y);
  check_launch("prod_forward_kernel");
}

template <class T>
void launch_prod_backward(cudaStream_t s, const ReduceDims& d, const T* x, const T* dy, T* dx, bool accum) {
  if (d.outputs == 0 || d.reduced == 0) return;
  prod_backward_kernel<T><<<blocks_per_output(d.outputs), kThreads, 0, s>>>(d, x, dy, dx, accum);
  check_launch("prod_backward_kernel");
}

int64_t remap_size(const RemapDims& d, const int64_t* shape) {
  int64_t n = d.samples;
  for (int a = 0; a < d.ndim; ++a) n *= shape[a];
  return n;
}

template <class T>
void launch_remap_forward(cudaStream_t s, const RemapDims& d, const RemapTables& t, const T* x, T* y, float fill) {
  const int64_t n = remap_size(d, d.out_shape);
  launch_grid(s, "remap_forward_kernel", n, remap_forward_kernel<T>, d, t, x, y, fill);
}

template <class T>
void launch_remap_backward(cudaStream_t s, const RemapDims& d, const RemapTables& t, const T* dy, T* dx,
                           bool accum) {
  const int64_t n = remap_size(d, d.in_shape);
  launch_grid(s, "remap_backward_kernel", n, remap_backward_kernel<T>, d, t, dy, dx, accum);
}

}  // namespace

void arg_extreme_forward(cudaStream_t s, const ReduceDims& d, bool is_max, const float* x, float* y, float* index,
                         int64_t* selected) {
  launch_arg_extreme(s, d, is_max, x, y, index, selected);
}
void arg_extreme_forward(cudaStream_t s, const ReduceDims& d, bool is_max, const __half* x, __half* y,
                         float* index, int64_t* selected) {
  launch_arg_extreme(s, d, is_max, x, y, index, selected);
}

void scatter_selected(cudaStream_t s, int64_t outputs, const int64_t* selected, const float* dy, float* dx) {
  launch_scatter_selected(s, outputs, selected, dy, dx);
}
void scatter_selected(cudaStream_t s, int64_t outputs, const int64_t* selected, const __half* dy, __half* dx) {
  launch_scatter_selected(s, outputs, selected, dy, dx);
}

void prod_forward(cudaStream_t s, const ReduceDims& d, const float* x, float* y) {
  launch_prod_forward(s, d, x, y);
}
void prod_forward(cudaStream_t s, const ReduceDims& d, const __half* x, __half* y) {
  launch_prod_forward(s, d, x, y);
}

void prod_backward(cudaStream_t s, const ReduceDims& d, const float* x, const float* dy, float* dx, bool accum) {
  launch_prod_backward(s, d, x, dy, dx, accum);
}
void prod_backward(cudaStream_t s, const ReduceDims& d, const __half* x, const __half* dy, __half* dx,
                   bool accum) {
  launch_prod_backward(s, d, x, dy, dx, accum);
}

void remap_forward(cudaStream_t s, const RemapDims& d, const RemapTables& t, const float* x, float* y,
                   float fill) {
  launch_remap_forward(s, d, t, x, y, fill);
}
void remap_forward(cudaStream_t s, const RemapDims& d, const RemapTables& t, const __half* x, __half* y,
                   float fill) {
  launch_remap_forward(s, d, t, x, y, fill);
}

void remap_backward(cudaStream_t s, const RemapDims& d, const RemapTables& t, const float* dy, float* dx,
                    bool accum) {
  launch_remap_backward(s, d, t, dy, dx, accum);
}
void remap_backward(cudaStream_t s, const RemapDims& d, const RemapTables& t, const __half* dy, __half* dx,
                    bool accum) {
  launch_remap_backward(s, d, t, dy, dx, accum);
}

}  // namespace nn::cuda::k
