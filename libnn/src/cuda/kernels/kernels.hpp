// Launchers of the CUDA kernels (defined in kernels/*.cu, which include no engine headers): plain pointers,
// sizes and the stream to run on. Every launcher checks its launch and throws through launch_failed.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace nn::cuda::k {

constexpr int kMaxDims = 8;

// Element types the device converts between (NdArray copies of one array in two dtypes on one device).
enum class ElementType : int { kFloat, kHalf, kInt32, kOther };
// dst = src converted elementwise; false (nothing done) for a pair it does not handle. Same types: a copy.
bool convert_on_device(cudaStream_t s, void* dst, ElementType dst_type, const void* src, ElementType src_type,
                       int64_t n);

// Elementwise unary ops; p0 and p1 are the op's float parameters: alpha (LeakyReLU, ELU), val (the scalar
// ops), beta (SoftPlus), scale and alpha (SELU). The launchers take T = float or __half storage and compute
// in float (explicitly instantiated for both in elementwise.cu).
enum class Unary : int {
  kReLU,
  kLeakyReLU,
  kELU,
  kSigmoid,
  kTanh,
  kSwish,
  kGELU,
  kAddScalar,
  kMulScalar,
  kPowScalar,
  kRSubScalar,
  kRDivScalar,
  kIdentity,
  kExp,
  kLog,
  kAbs,
  kSELU,
  kSoftPlus,
  kBinarySigmoid,
  kBinaryTanh
};
struct UnaryParams {
  float p0 = 0.f, p1 = 0.f;
};
template <class T>
void unary_forward(cudaStream_t s, Unary op, int64_t n, const T* x, T* y, UnaryParams p);
// dx (=|+=) dy * f'(x, y); x or y may be null when the op does not read it.
template <class T>
void unary_backward(cudaStream_t s, Unary op, int64_t n, const T* x, const T* y, const T* dy, T* dx, UnaryParams p,
                    bool accum);

// Elementwise binary ops with numpy broadcasting over the output index space; `param` is HuberLoss's delta.
// BinaryError is forward-only (its partials are zero).
enum class Binary : int {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kSquaredError,
  kPow,
  kMaximum,
  kMinimum,
  kSigmoidCrossEntropy,
  kBinaryCrossEntropy,
  kAbsoluteError,
  kHuberLoss,
  kBinaryError
};
struct BroadcastDims {
  int ndim = 0;
  int64_t out_shape[kMaxDims] = {};
  int64_t stride_a[kMaxDims] = {};  // 0 on broadcast axes
  int64_t stride_b[kMaxDims] = {};
};
template <class T>
void binary_forward(cudaStream_t s, Binary op, int64_t n, const BroadcastDims& d, bool same, const T* a,
                    const T* b, T* y, float param);
// Where the grad of one input goes: `direct` when the input has the output's layout (written, or added to
// when accumulating), else `atomic`, a float buffer of the input's size receiving atomic adds (zeroed by
// the caller, or holding the grad to accumulate onto). Both null: not wanted.
template <class T>
struct BinaryGrad {
  T* direct = nullptr;
  float* atomic = nullptr;
  bool accum = false;
};
template <class T>
void binary_backward(cudaStream_t s, Binary op, int64_t n, const BroadcastDims& d, bool same, const T* a,
                     const T* b, const T* dy, float param, BinaryGrad<T> da, BinaryGrad<T> db);
// dst = src, or dst += src when accumulating: float accumulators into T grads.
template <class T>
void store_float_grad(cudaStream_t s, int64_t n, const float* src, T* dst, bool accum);

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
void strided_copy(cudaStream_t s, const StridedView& v, const __half* src, __half* dst, float scale, bool accum);

// Sums over reduced axes: output o (kept index space) gets scale * sum over the reduced index space.
struct ReduceDims {
  int kept_ndim = 0, reduced_ndim = 0;
  int64_t kept_shape[kMaxDims] = {}, kept_strides[kMaxDims] = {};
  int64_t reduced_shape[kMaxDims] = {}, reduced_strides[kMaxDims] = {};
  int64_t outputs = 1, reduced = 1;
};
void reduce_sum(cudaStream_t s, const ReduceDims& d, const float* x, float* y, float scale, bool accum);
void reduce_sum(cudaStream_t s, const ReduceDims& d, const __half* x, __half* y, float scale,
                bool accum);  // float sums

// Softmax / LogSoftmax along the middle axis of (outer, size, inner).
void softmax_forward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* x, float* y,
                     bool log);
void softmax_backward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* y, const float* dy,
                      float* dx, bool log, bool accum);
// SoftmaxCrossEntropy: log_p keeps log-softmax(x) for backward; y[line] = -log_p[label].
void softmax_cross_entropy_forward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* x,
                                   const float* label, float* log_p, float* y);
void softmax_cross_entropy_backward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* log_p,
                                    const float* label, const float* dy, float* dx, bool accum);

// y (rows x cols) += b (cols) on every row.
void add_bias_rows(cudaStream_t s, int64_t rows, int64_t cols, const float* b, float* y);
void add_bias_rows(cudaStream_t s, int64_t rows, int64_t cols, const __half* b, __half* y);
// y[c, i] += b[c] for a (outer, channels, inner) layout.
void add_bias_channels(cudaStream_t s, int64_t outer, int64_t channels, int64_t inner, const float* b, float* y);

}  // namespace nn::cuda::k
