// Launchers of the math/activation/loss kernels that are not plain elementwise (defined in math.cu):
// CReLU/CELU, PReLU, label losses, TopNError, Embed, OneHot and Dropout. T is float or __half where templated
// (explicitly instantiated for both), computed in float.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/kernels/kernels.hpp"

namespace nn::cuda::k {

// CReLU (elu false) / CELU (elu true, with alpha): x viewed as (outer, block); y as (outer, 2, block) holds
// f(x) then f(-x).
template <class T>
void concat_activation_forward(cudaStream_t s, bool elu, int64_t outer, int64_t block, const T* x, T* y,
                               float alpha);
// dx (=|+=) dy_pos f'(x) - dy_neg f'(-x).
template <class T>
void concat_activation_backward(cudaStream_t s, bool elu, int64_t outer, int64_t block, const T* x, const T* dy,
                                T* dx, float alpha, bool accum);

// PReLU over n elements; element i uses slope w[(i / inner) % channels] (channels 1: one shared slope).
template <class T>
void prelu_forward(cudaStream_t s, int64_t n, int64_t channels, int64_t inner, const T* x, const T* w, T* y);
template <class T>
void prelu_backward_input(cudaStream_t s, int64_t n, int64_t channels, int64_t inner, const T* x, const T* w,
                          const T* dy, T* dx, bool accum);
// dw_sum[c] += sum of dy * x over the elements of channel c where x < 0 (block reductions, one atomic add
// per block); dw_sum is float, zeroed by the caller.
template <class T>
void prelu_backward_slope(cudaStream_t s, int64_t n, int64_t channels, int64_t inner, const T* x, const T* dy,
                          float* dw_sum);

// Label losses on x viewed as (outer, size, inner), one line per (outer, inner) pair, label[line] an integer
// held in a float (checked by the caller). y[line] = -log(max(x[label], FLT_MIN)).
void categorical_cross_entropy_forward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* x,
                                       const float* label, float* y);
// dx[label] -= dy / max(x[label], FLT_MIN) on each line; dx holds zeros or the grads to accumulate onto.
void categorical_cross_entropy_backward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* x,
                                        const float* label, const float* dy, float* dx);
// y[line] = 1 when more than n scores of the line are >= the label's score, else 0.
void top_n_error_forward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* x,
                         const float* label, int64_t n, float* y);

// Embed: y[i, :] = w[index[i], :] for n indices and rows of length row; indices checked by the caller.
void embed_forward(cudaStream_t s, int64_t n, int64_t rows, int64_t row, const float* index, const float* w,
                   float* y);
// dw[index[i], :] += dy[i, :] (atomic adds).
void embed_backward(cudaStream_t s, int64_t n, int64_t rows, int64_t row, const float* index, const float* dy,
                    float* dw);

// OneHot: num groups of dim indices (rounded to nearest) each set one element of their shape[0..dim) block
// of y to 1; y must be zeroed first. Indices checked by the caller.
struct OneHotShape {
  int dim = 0;
  int64_t size[kMaxDims] = {};
};
void one_hot_forward(cudaStream_t s, int64_t num, const OneHotShape& shape, int64_t block, const float* x,
                     float* y);

// Dropout with a counter-based mask: element i is kept (scaled by `scale`) when the splitmix64 hash of
// key + i, as a uniform [0, 1) number, is >= p. The same key gives the same mask in backward.
template <class T>
void dropout_forward(cudaStream_t s, int64_t n, const T* x, T* y, float p, float scale, uint64_t key);
template <class T>
void dropout_backward(cudaStream_t s, int64_t n, const T* dy, T* dx, float p, float scale, uint64_t key,
                      bool accum);

}  // namespace nn::cuda::k
