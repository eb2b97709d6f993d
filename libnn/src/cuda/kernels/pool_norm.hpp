// Launchers of the pooling and batch-normalization kernels (pooling.cu, batch_norm.cu): plain pointers, T is
// float or __half (statistics, parameters and running averages are always float).
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace nn::cuda::k {

constexpr int kMaxPoolDims = 8;

// Geometry of a pooling over the last nd axes of `maps` independent maps (nnabla's window rules: window o
// of axis d starts at o * stride - pad, ends at min(start + kernel, in + pad), and is clamped to the input).
struct PoolDims {
  int nd = 0;
  int64_t maps = 1, in_size = 1, out_size = 1;  // in_size/out_size: elements of one map
  int64_t in[kMaxPoolDims] = {}, out[kMaxPoolDims] = {}, kernel[kMaxPoolDims] = {};
  int64_t stride[kMaxPoolDims] = {}, pad[kMaxPoolDims] = {};
};

// MaxPooling: y = window max (the first maximum in row-major window order wins; an empty window gives 0
// and argmax -1); argmax gets the winner's offset within its map.
template <class T>
void max_pool_forward(cudaStream_t s, const PoolDims& d, const T* x, T* y, int32_t* argmax);
// dx (=|+=) the sum of dy over the outputs whose argmax is this element (outputs in ascending order).
template <class T>
void max_pool_backward(cudaStream_t s, const PoolDims& d, const int32_t* argmax, const T* dy, T* dx, bool accum);

// Average (average=true; including_pad counts padding in the divisor) and SumPooling.
template <class T>
void window_sum_forward(cudaStream_t s, const PoolDims& d, bool average, bool including_pad, const T* x, T* y);
template <class T>
void window_sum_backward(cudaStream_t s, const PoolDims& d, bool average, bool including_pad, const T* dy, T* dx,
                         bool accum);

// GlobalAveragePooling over maps of `area` contiguous elements.
template <class T>
void global_average_forward(cudaStream_t s, int64_t maps, int64_t area, const T* x, T* y);
template <class T>
void global_average_backward(cudaStream_t s, int64_t maps, int64_t area, const T* dy, T* dx, bool accum);

// Unpooling: each input element repeated kernel[d] times along the pooled axes (d.in: input, d.out: output
// extents; d.kernel: repeat counts; stride and pad unused).
template <class T>
void unpool_forward(cudaStream_t s, const PoolDims& d, const T* x, T* y);
template <class T>
void unpool_backward(cudaStream_t s, const PoolDims& d, const T* dy, T* dx, bool accum);

// BatchNormalization on an (outer, channels, inner) view of x.
struct BnDims {
  int64_t outer = 1, channels = 1, inner = 1;
  int64_t chunks = 1;  // partial sums per channel (blocks along the reduction); see bn_partial_chunks
};
// How many partial sums per channel the reductions use, and the scratch they need (doubles).
int64_t bn_partial_chunks(int64_t outer, int64_t channels, int64_t inner);
inline int64_t bn_scratch_doubles(const BnDims& d) { return d.channels * (2 * d.chunks + 1); }

// Batch statistics as the CPU kernel: mean = sum / n, variance = mean of (x - float(mean))^2 corrected
// for the float mean's rounding (biased). scratch: bn_scratch_doubles(d) doubles.
template <class T>
void bn_batch_stats(cudaStream_t s, const BnDims& d, const T* x, double* scratch, float* batch_mean,
                    float* batch_var);
// Running statistics update (rm = decay rm + (1 - decay) batch_mean; rv likewise with the unbiased batch
// variance), when running_mean is not null; then scale = gamma / sqrt(var + eps), shift = beta - mean scale
// (gamma/beta null: 1/0). Optional copies of the batch statistics into mean_out/var_out.
void bn_finish_stats(cudaStream_t s, int64_t channels, int64_t n, const float* mean, const float* var,
                     float* running_mean, float* running_var, float decay, const float* gamma, const float* beta,
                     float eps, float* scale, float* shift, float* mean_out, float* var_out);
// y = x * scale[c] + shift[c].
template <class T>
void bn_normalize(cudaStream_t s, const BnDims& d, const T* x, const float* scale, const float* shift, T* y);

// Backward. Per-channel sums of dy and dy (x - mean) (scratch: bn_scratch_doubles(d) doubles), then the
// parameter grads and the per-channel coefficients of dx = dy k_dy + (x - mean) k_xc + k_const.
template <class T>
void bn_backward_sums(cudaStream_t s, const BnDims& d, const T* x, const T* dy, const float* mean,
                      double* scratch);
struct BnGrads {
  float *dbeta = nullptr, *dgamma = nullptr, *dmean = nullptr, *dvar = nullptr;  // null: not wanted
  bool accum_beta = false, accum_gamma = false, accum_mean = false, accum_var = false;
  const float* dmean_out = nullptr;  // grads arriving at the batch-statistics outputs (batch_stat only)
  const float* dvar_out = nullptr;
};
void bn_backward_coefficients(cudaStream_t s, const BnDims& d, bool batch_stat, const double* scratch,
                              const float* gamma, const float* var, float eps, const BnGrads& g, float* k_dy,
                              float* k_xc, float* k_const);
template <class T>
void bn_backward_dx(cudaStream_t s, const BnDims& d, const T* x, const T* dy, const float* mean, const float* k_dy,
                    const float* k_xc, const float* k_const, T* dx, bool accum);

}  // namespace nn::cuda::k
