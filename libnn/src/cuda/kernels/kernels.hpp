// Launchers of the CUDA kernels (defined in kernels/*.cu, which include no engine headers): plain pointers,
// sizes and the stream to run on. Every launcher checks its launch and throws through launch_failed.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace nn::cuda::k {

constexpr int kMaxDims = 8;

// Elementwise unary ops with one float parameter (alpha for LeakyReLU/ELU, val for the scalar ops).
enum class Unary : int {
  kReLU, kLeakyReLU, kELU, kSigmoid, kTanh, kSwish, kGELU,
  kAddScalar, kMulScalar, kPowScalar, kRSubScalar, kRDivScalar, kIdentity
};
void unary_forward(cudaStream_t s, Unary op, int64_t n, const float* x, float* y, float alpha);
// dx (=|+=) dy * f'(x, y); x or y may be null when the op does not read it.
void unary_backward(cudaStream_t s, Unary op, int64_t n, const float* x, const float* y, const float* dy,
                    float* dx, float alpha, bool accum);

// Elementwise binary ops with numpy broadcasting over the output index space.
enum class Binary : int { kAdd, kSub, kMul, kDiv, kSquaredError };
struct BroadcastDims {
  int ndim = 0;
  int64_t out_shape[kMaxDims] = {};
  int64_t stride_a[kMaxDims] = {};  // 0 on broadcast axes
  int64_t stride_b[kMaxDims] = {};
};
void binary_forward(cudaStream_t s, Binary op, int64_t n, const BroadcastDims& d, bool same, const float* a,
                    const float* b, float* y);
// same: da/db are written (or added to when accumulating). Broadcast: da/db must be zeroed (or hold the
// grads to accumulate onto) and receive atomic adds. Null grads are skipped.
void binary_backward(cudaStream_t s, Binary op, int64_t n, const BroadcastDims& d, bool same, const float* a,
                     const float* b, const float* dy, float* da, float* db, bool accum_a, bool accum_b);

// A strided view: element i of a `shape` index space lives at offset + sum(index[d] * strides[d]).
struct StridedView {
  int ndim = 0;
  int64_t shape[kMaxDims] = {};
  int64_t src_strides[kMaxDims] = {};
  int64_t dst_strides[kMaxDims] = {};
  int64_t src_offset = 0, dst_offset = 0;
};
// dst[view] = scale * src[view] (+ dst[view] when accum). The destination positions must be distinct.
void strided_copy(cudaStream_t s, const StridedView& v, const float* src, float* dst, float scale, bool accum);

// Sums over reduced axes: output o (kept index space) gets scale * sum over the reduced index space.
struct ReduceDims {
  int kept_ndim = 0, reduced_ndim = 0;
  int64_t kept_shape[kMaxDims] = {}, kept_strides[kMaxDims] = {};
  int64_t reduced_shape[kMaxDims] = {}, reduced_strides[kMaxDims] = {};
  int64_t outputs = 1, reduced = 1;
};
void reduce_sum(cudaStream_t s, const ReduceDims& d, const float* x, float* y, float scale, bool accum);

// Softmax / LogSoftmax along the middle axis of (outer, size, inner).
void softmax_forward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* x, float* y,
                     bool log);
void softmax_backward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* y,
                      const float* dy, float* dx, bool log, bool accum);
// SoftmaxCrossEntropy: log_p keeps log-softmax(x) for backward; y[line] = -log_p[label].
void softmax_cross_entropy_forward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* x,
                                   const float* label, float* log_p, float* y);
void softmax_cross_entropy_backward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner,
                                    const float* log_p, const float* label, const float* dy, float* dx,
                                    bool accum);

// y (rows x cols) += b (cols) on every row.
void add_bias_rows(cudaStream_t s, int64_t rows, int64_t cols, const float* b, float* y);
// y[c, i] += b[c] for a (outer, channels, inner) layout.
void add_bias_channels(cudaStream_t s, int64_t outer, int64_t channels, int64_t inner, const float* b, float* y);

// Solver updates, one thread per element.
void sgd_update(cudaStream_t s, int64_t n, float* x, const float* g, float lr);
void momentum_update(cudaStream_t s, int64_t n, float* x, const float* g, float* v, float lr, float momentum);
// Adam/AdamW: x -= alpha_t m / (sqrt(v) + eps) + decay x.
void adam_update(cudaStream_t s, int64_t n, float* x, const float* g, float* m, float* v, float alpha_t,
                 float beta1, float beta2, float eps, float decay);

}  // namespace nn::cuda::k
