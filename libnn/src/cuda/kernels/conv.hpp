// Launchers of the convolution helper kernels (kernels/conv.cu): per-channel bias and weight binarization,
// for float and __half storage (half kernels accumulate in float).
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace nn::cuda::k {

// y (outer, channels, inner) += b[channel].
void conv_bias_forward(cudaStream_t s, int64_t outer, int64_t channels, int64_t inner, const float* b, float* y);
void conv_bias_forward(cudaStream_t s, int64_t outer, int64_t channels, int64_t inner, const __half* b, __half* y);
// db[c] (=|+=) sum of dy (outer, channels, inner) over all but the channel axis.
void conv_bias_backward(cudaStream_t s, int64_t outer, int64_t channels, int64_t inner, const float* dy, float* db,
                        bool accum);
void conv_bias_backward(cudaStream_t s, int64_t outer, int64_t channels, int64_t inner, const __half* dy,
                        __half* db, bool accum);

// bw[i] = +1 for w > 0, -1 for w < 0, zero_to for w == 0.
void binarize_weight(cudaStream_t s, int64_t n, const float* w, float* bw, float zero_to);
void binarize_weight(cudaStream_t s, int64_t n, const __half* w, __half* bw, float zero_to);
// Per output row o of w (outputs, per_output): alpha[o] = mean |w[o, :]|, bw = binarize(w) as above and
// scaled = bw * alpha[o].
void binarize_weight_scaled(cudaStream_t s, int64_t outputs, int64_t per_output, const float* w, float* bw,
                            float* alpha, float* scaled, float zero_to);
void binarize_weight_scaled(cudaStream_t s, int64_t outputs, int64_t per_output, const __half* w, __half* bw,
                            __half* alpha, __half* scaled, float zero_to);
// The affine layout: w (rows, cols) with one alpha per column, alpha[c] = mean over rows of |w[r, c]|.
void binarize_weight_scaled_columns(cudaStream_t s, int64_t rows, int64_t cols, const float* w, float* bw,
                                    float* alpha, float* scaled, float zero_to);
void binarize_weight_scaled_columns(cudaStream_t s, int64_t rows, int64_t cols, const __half* w, __half* bw,
                                    __half* alpha, __half* scaled, float zero_to);

}  // namespace nn::cuda::k
