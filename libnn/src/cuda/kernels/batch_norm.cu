// BatchNormalization kernels: deterministic per-channel reductions (blocks of partial sums, added in a fixed
// order in double), the per-channel finishing steps as the CPU kernel computes them, elementwise passes.
#include "cuda/kernels/element_io.cuh"
#include "cuda/kernels/launch.cuh"
#include "cuda/kernels/pool_norm.hpp"

namespace nn::cuda::k {
namespace {

using io::from_float;
using io::to_float;

__device__ inline int64_t element_of(const BnDims& d, int64_t c, int64_t j) {
  return ((j / d.inner) * d.channels + c) * d.inner + j % d.inner;
}

// Sums `value` over the block into out (thread 0 writes); every thread of the block must call it.
template <int kTerms>
__device__ inline void block_sum(double (&value)[kTerms], double* out0, double* out1) {
  __shared__ double partial[kTerms][kThreads];
  for (int t = 0; t < kTerms; ++t) partial[t][threadIdx.x] = value[t];
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      for (int t = 0; t < kTerms; ++t) partial[t][threadIdx.x] += partial[t][threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    *out0 = partial[0][0];
    if (kTerms > 1) *out1 = partial[kTerms - 1][0];
  }
}

// Block (c, chunk) writes partial[c * chunks + chunk]: the sum of x (squared_from == null) or of
// (x - squared_from[c])^2 over its share of channel c.
template <class T>
__global__ void bn_sum_kernel(BnDims d, const T* x, const float* squared_from, double* partial) {
  const int64_t c = blockIdx.x, chunk = blockIdx.y, n = d.outer * d.inner;
  const float m = squared_from ? squared_from[c] : 0.f;
  float sum = 0.f;
  for (int64_t j = chunk * blockDim.x + threadIdx.x; j < n; j += d.chunks * blockDim.x) {
    const float v = to_float(x[element_of(d, c, j)]);
    sum += squared_from ? (v - m) * (v - m) : v;
  }
  double value[1] = {sum};
  block_sum<1>(value, &partial[c * d.chunks + chunk], nullptr);
}

// mean = sum / n in double (kept for the variance's rounding correction) and as float.
__global__ void bn_mean_kernel(BnDims d, const double* partial, double* mean_exact, float* mean) {
  const double n = double(d.outer * d.inner);
  NN_GRID_LOOP(c, d.channels) {
    double sum = 0;
    for (int64_t k = 0; k < d.chunks; ++k) sum += partial[c * d.chunks + k];
    mean_exact[c] = n > 0 ? sum / n : 0.0;
    mean[c] = float(mean_exact[c]);
  }
}

// Biased variance: mean of (x - float mean)^2 less the square of the float mean's rounding offset.
__global__ void bn_var_kernel(BnDims d, const double* partial, const double* mean_exact, const float* mean,
                              float* var) {
  const double n = double(d.outer * d.inner);
  NN_GRID_LOOP(c, d.channels) {
    double sq = 0;
    for (int64_t k = 0; k < d.chunks; ++k) sq += partial[c * d.chunks + k];
    const double rounding = mean_exact[c] - double(mean[c]);
    var[c] = float(n > 0 ? fmax(0.0, sq / n - rounding * rounding) : 0.0);
  }
}

__global__ void bn_finish_kernel(int64_t channels, int64_t n, const float* mean, const float* var,
                                 float* running_mean, float* running_var, float decay, const float* gamma,
                                 const float* beta, float eps, float* scale, float* shift, float* mean_out,
                                 float* var_out) {
  const double unbias = n > 1 ? double(n) / double(n - 1) : 1.0;
  NN_GRID_LOOP(c, channels) {
    const float m = mean[c], v = var[c];
    if (running_mean) {
      running_mean[c] = decay * running_mean[c] + (1 - decay) * m;
      running_var[c] = decay * running_var[c] + (1 - decay) * float(double(v) * unbias);
    }
    if (mean_out) mean_out[c] = m;
    if (var_out) var_out[c] = v;
    const float sc = (gamma ? gamma[c] : 1.f) / sqrtf(v + eps);
    scale[c] = sc;
    shift[c] = (beta ? beta[c] : 0.f) - m * sc;
  }
}

template <class T>
__global__ void bn_normalize_kernel(BnDims d, const T* x, const float* scale, const float* shift, T* y) {
  NN_GRID_LOOP(i, d.outer * d.channels * d.inner) {
    const int64_t c = (i / d.inner) % d.channels;
    y[i] = from_float<T>(to_float(x[i]) * scale[c] + shift[c]);
  }
}

// Block (c, chunk): partial sums of dy and of dy (x - mean[c]) into the two halves of partial.
template <class T>
__global__ void bn_backward_sum_kernel(BnDims d, const T* x, const T* dy, const float* mean, double* partial) {
  const int64_t c = blockIdx.x, chunk = blockIdx.y, n = d.outer * d.inner;
  const float m = mean[c];
  float sum_dy = 0.f, sum_dy_xc = 0.f;
  for (int64_t j = chunk * blockDim.x + threadIdx.x; j < n; j += d.chunks * blockDim.x) {
    const int64_t e = element_of(d, c, j);
    const float g = to_float(dy[e]);
    sum_dy += g;
    sum_dy_xc += g * (to_float(x[e]) - m);
  }
  double value[2] = {sum_dy, sum_dy_xc};
  const int64_t at = c * d.chunks + chunk;
  block_sum<2>(value, &partial[at], &partial[d.channels * d.chunks + at]);
}

__device__ inline void store(float* g, int64_t c, float v, bool accum) { g[c] = accum ? g[c] + v : v; }

__global__ void bn_coefficients_kernel(BnDims d, bool batch_stat, const double* partial, const float* gamma,
                                       const float* var, float eps, BnGrads g, float* k_dy, float* k_xc,
                                       float* k_const) {
  const double n = double(d.outer * d.inner);
  NN_GRID_LOOP(c, d.channels) {
    double sum_dy = 0, sum_dy_xc = 0;
    for (int64_t k = 0; k < d.chunks; ++k) {
      sum_dy += partial[c * d.chunks + k];
      sum_dy_xc += partial[d.channels * d.chunks + c * d.chunks + k];
    }
    const double gm = gamma ? double(gamma[c]) : 1.0, v = double(var[c]) + double(eps);
    const double inv_std = 1.0 / sqrt(v);
    if (g.dbeta) store(g.dbeta, c, float(sum_dy), g.accum_beta);
    if (g.dgamma) store(g.dgamma, c, float(sum_dy_xc * inv_std), g.accum_gamma);
    k_dy[c] = float(gm * inv_std);
    if (batch_stat) {
      // y does not depend on the running statistics; x reaches y through the batch mean and variance too.
      if (g.dmean) store(g.dmean, c, 0.f, g.accum_mean);
      if (g.dvar) store(g.dvar, c, 0.f, g.accum_var);
      const double dvar = -0.5 * gm * sum_dy_xc * inv_std / v + (g.dvar_out ? double(g.dvar_out[c]) : 0.0);
      const double dmean = -gm * sum_dy * inv_std + (g.dmean_out ? double(g.dmean_out[c]) : 0.0);
      k_xc[c] = float(dvar * 2.0 / n);
      k_const[c] = float(dmean / n);
    } else {
      if (g.dmean) store(g.dmean, c, float(-gm * sum_dy * inv_std), g.accum_mean);
      if (g.dvar) store(g.dvar, c, float(-0.5 * gm * sum_dy_xc * inv_std / v), g.accum_var);
      k_xc[c] = 0.f;
      k_const[c] = 0.f;
    }
  }
}

template <class T>
__global__ void bn_backward_dx_kernel(BnDims d, const T* x, const T* dy, const float* mean, const float* k_dy,
                                      const float* k_xc, const float* k_const, T* dx, bool accum) {
  NN_GRID_LOOP(i, d.outer * d.channels * d.inner) {
    const int64_t c = (i / d.inner) % d.channels;
    const float g = to_float(dy[i]) * k_dy[c] + (to_float(x[i]) - mean[c]) * k_xc[c] + k_const[c];
    dx[i] = from_float<T>(accum ? to_float(dx[i]) + g : g);
  }
}

dim3 sum_grid(const BnDims& d) { return dim3(unsigned(d.channels), unsigned(d.chunks)); }
bool empty(const BnDims& d) { return d.outer * d.channels * d.inner == 0; }

}  // namespace

int64_t bn_partial_chunks(int64_t outer, int64_t channels, int64_t inner) {
  // About 16 elements per thread, at most 2^18 partial sums in all, and within the grid's y limit.
  const int64_t n = outer * inner, per_block = int64_t(kThreads) * 16;
  int64_t chunks = (n + per_block - 1) / per_block;
  const int64_t cap = channels > 0 ? (int64_t(1) << 18) / channels : 1;
  if (chunks > cap) chunks = cap;
  if (chunks > 65535) chunks = 65535;
  return chunks < 1 ? 1 : chunks;
}

template <class T>
void bn_batch_stats(cudaStream_t s, const BnDims& d, const T* x, double* scratch, float* batch_mean,
                    float* batch_var) {
  if (d.channels == 0) return;
  double* partial = scratch;
  double* mean_exact = scratch + 2 * d.channels * d.chunks;
  bn_sum_kernel<T><<<sum_grid(d), kThreads, 0, s>>>(d, x, nullptr, partial);
  check_launch("bn_sum_kernel");
  bn_mean_kernel<<<blocks_for(d.channels), kThreads, 0, s>>>(d, partial, mean_exact, batch_mean);
  check_launch("bn_mean_kernel");
  bn_sum_kernel<T><<<sum_grid(d), kThreads, 0, s>>>(d, x, batch_mean, partial);
  check_launch("bn_sum_kernel");
  bn_var_kernel<<<blocks_for(d.channels), kThreads, 0, s>>>(d, partial, mean_exact, batch_mean, batch_var);
  check_launch("bn_var_kernel");
}

void bn_finish_stats(cudaStream_t s, int64_t channels, int64_t n, const float* mean, const float* var,
                     float* running_mean, float* running_var, float decay, const float* gamma, const float* beta,
                     float eps, float* scale, float* shift, float* mean_out, float* var_out) {
  if (channels == 0) return;
  bn_finish_kernel<<<blocks_for(channels), kThreads, 0, s>>>(
      channels, n, mean, var, running_mean, running_var, decay, gamma, beta, eps, scale, shift, mean_out, var_out);
  check_launch("bn_finish_kernel");
}

template <class T>
void bn_normalize(cudaStream_t s, const BnDims& d, const T* x, const float* scale, const float* shift, T* y) {
  if (empty(d)) return;
  bn_normalize_kernel<T><<<blocks_for(d.outer * d.channels * d.inner), kThreads, 0, s>>>(d, x, scale, shift, y);
  check_launch("bn_normalize_kernel");
}

template <class T>
void bn_backward_sums(cudaStream_t s, const BnDims& d, const T* x, const T* dy, const float* mean,
                      double* scratch) {
  if (d.channels == 0) return;
  bn_backward_sum_kernel<T><<<sum_grid(d), kThreads, 0, s>>>(d, x, dy, mean, scratch);
  check_launch("bn_backward_sum_kernel");
}

void bn_backward_coefficients(cudaStream_t s, const BnDims& d, bool batch_stat, const double* scratch,
                              const float* gamma, const float* var, float eps, const BnGrads& g, float* k_dy,
                              float* k_xc, float* k_const) {
  if (d.channels == 0) return;
  bn_coefficients_kernel<<<blocks_for(d.channels), kThreads, 0, s>>>(d, batch_stat, scratch, gamma, var, eps, g,
                                                                     k_dy, k_xc, k_const);
  check_launch("bn_coefficients_kernel");
}

template <class T>
void bn_backward_dx(cudaStream_t s, const BnDims& d, const T* x, const T* dy, const float* mean, const float* k_dy,
                    const float* k_xc, const float* k_const, T* dx, bool accum) {
  if (empty(d)) return;
  bn_backward_dx_kernel<T><<<blocks_for(d.outer * d.channels * d.inner), kThreads, 0, s>>>(
      d, x, dy, mean, k_dy, k_xc, k_const, dx, accum);
  check_launch("bn_backward_dx_kernel");
}

#define NN_BATCH_NORM_INSTANTIATE(T)                                                                           \
  template void bn_batch_stats<T>(cudaStream_t, const BnDims&, const T*, double*, float*, float*);             \
  template void bn_normalize<T>(cudaStream_t, const BnDims&, const T*, const float*, const float*, T*);        \
  template void bn_backward_sums<T>(cudaStream_t, const BnDims&, const T*, const T*, const float*, double*);   \
  template void bn_backward_dx<T>(cudaStream_t, const BnDims&, const T*, const T*, const float*, const float*, \
                                  const float*, const float*, T*, bool);
NN_BATCH_NORM_INSTANTIATE(float)
NN_BATCH_NORM_INSTANTIATE(__half)
#undef NN_BATCH_NORM_INSTANTIATE

}  // namespace nn::cuda::k
