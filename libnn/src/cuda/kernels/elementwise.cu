// Elementwise CUDA kernels on float or __half storage (computed in float): unary activations, math and scalar
// ops; broadcasting binary arithmetic and elementwise losses.
#include "cuda/kernels/element_io.cuh"
#include "cuda/kernels/kernels.hpp"
#include "cuda/kernels/launch.cuh"

namespace nn::cuda::k {
namespace {

using io::load;
using io::store;

constexpr float kTiny = 1.17549435e-38f;       // FLT_MIN, the CPU losses' clamp
constexpr float kGeluC = 0.7978845608028654f;  // sqrt(2 / pi)
constexpr float kGeluA = 0.044715f;

__device__ inline float sigmoidf(float x) { return 1.f / (1.f + expf(-x)); }
// log(1 + exp(x)) without overflow.
__device__ inline float softplus1(float x) { return fmaxf(x, 0.f) + log1pf(expf(-fabsf(x))); }
__device__ inline float signf(float x) { return x > 0.f ? 1.f : (x < 0.f ? -1.f : 0.f); }

__device__ float unary_f(Unary op, float x, UnaryParams p) {
  switch (op) {
    case Unary::kReLU: return x > 0.f ? x : 0.f;
    case Unary::kLeakyReLU: return x > 0.f ? x : p.p0 * x;
    case Unary::kELU: return x >= 0.f ? x : p.p0 * expm1f(x);
    case Unary::kSigmoid: return sigmoidf(x);
    case Unary::kTanh: return tanhf(x);
    case Unary::kSwish: return x * sigmoidf(x);
    case Unary::kGELU: return 0.5f * x * (1.f + tanhf(kGeluC * (x + kGeluA * x * x * x)));
    case Unary::kAddScalar: return x + p.p0;
    case Unary::kMulScalar: return x * p.p0;
    case Unary::kPowScalar: return powf(x, p.p0);
    case Unary::kRSubScalar: return p.p0 - x;
    case Unary::kRDivScalar: return p.p0 / x;
    case Unary::kIdentity: return x;
    case Unary::kExp: return expf(x);
    case Unary::kLog: return logf(x);
    case Unary::kAbs: return fabsf(x);
    case Unary::kSELU: return p.p0 * (x > 0.f ? x : p.p1 * expm1f(x));
    case Unary::kSoftPlus: return softplus1(p.p0 * x) / p.p0;
    case Unary::kBinarySigmoid: return x > 0.f ? 1.f : 0.f;
    case Unary::kBinaryTanh: return x > 0.f ? 1.f : -1.f;
  }
  return 0.f;
}

// dy/dx given x and y.
__device__ float unary_df(Unary op, float x, float y, UnaryParams p) {
  switch (op) {
    case Unary::kReLU: return x > 0.f ? 1.f : 0.f;
    case Unary::kLeakyReLU: return x > 0.f ? 1.f : p.p0;
    case Unary::kELU: return x >= 0.f ? 1.f : p.p0 * expf(x);
    case Unary::kSigmoid: return y * (1.f - y);
    case Unary::kTanh: return 1.f - y * y;
    case Unary::kSwish: return y + sigmoidf(x) * (1.f - y);
    case Unary::kGELU: {
      const float t = tanhf(kGeluC * (x + kGeluA * x * x * x));
      return 0.5f * (1.f + t) + 0.5f * x * (1.f - t * t) * kGeluC * (1.f + 3.f * kGeluA * x * x);
    }
    case Unary::kAddScalar: return 1.f;
    case Unary::kMulScalar: return p.p0;
    case Unary::kPowScalar: return p.p0 * powf(x, p.p0 - 1.f);
    case Unary::kRSubScalar: return -1.f;
    case Unary::kRDivScalar: return -p.p0 / (x * x);
    case Unary::kIdentity: return 1.f;
    case Unary::kExp: return y;
    case Unary::kLog: return 1.f / x;
    case Unary::kAbs: return signf(x);
    case Unary::kSELU: return p.p0 * (x > 0.f ? 1.f : p.p1 * expf(x));
    case Unary::kSoftPlus: return sigmoidf(p.p0 * x);
    case Unary::kBinarySigmoid: return fabsf(x) >= 1.f ? 0.f : 0.5f;
    case Unary::kBinaryTanh: return fabsf(x) >= 1.f ? 0.f : 1.f;
  }
  return 0.f;
}

template <class T>
__global__ void unary_forward_kernel(Unary op, int64_t n, const T* x, T* y, UnaryParams p) {
  NN_GRID_LOOP(i, n) store(y, i, unary_f(op, load(x, i), p));
}

template <class T>
__global__ void unary_backward_kernel(Unary op, int64_t n, const T* x, const T* y, const T* dy, T* dx,
                                      UnaryParams p, bool accum) {
  NN_GRID_LOOP(i, n) {
    const float g = load(dy, i) * unary_df(op, x ? load(x, i) : 0.f, y ? load(y, i) : 0.f, p);
    store(dx, i, accum ? load(dx, i) + g : g);
  }
}

// Binary ops: a is x0 (x for the losses), b is x1 (the target); p is HuberLoss's delta.
__device__ float binary_f(Binary op, float a, float b, float p) {
  switch (op) {
    case Binary::kAdd: return a + b;
    case Binary::kSub: return a - b;
    case Binary::kMul: return a * b;
    case Binary::kDiv: return a / b;
    case Binary::kSquaredError: return (a - b) * (a - b);
    case Binary::kPow: return powf(a, b);
    case Binary::kMaximum: return a > b ? a : b;
    case Binary::kMinimum: return a < b ? a : b;
    case Binary::kSigmoidCrossEntropy: return fmaxf(a, 0.f) - a * b + log1pf(expf(-fabsf(a)));
    case Binary::kBinaryCrossEntropy:
      return -(b * logf(fmaxf(a, kTiny)) + (1.f - b) * logf(fmaxf(1.f - a, kTiny)));
    case Binary::kAbsoluteError: return fabsf(a - b);
    case Binary::kHuberLoss: {
      const float ad = fabsf(a - b);
      return ad < p ? ad * ad : p * (2.f * ad - p);
    }
    case Binary::kBinaryError: return (a >= 0.5f) != (b >= 0.5f) ? 1.f : 0.f;
  }
  return 0.f;
}
__device__ float huber_da(float a, float b, float delta) {
  const float d = a - b;
  return 2.f * (fabsf(d) < delta ? d : (d > 0.f ? delta : -delta));
}
__device__ float binary_da(Binary op, float a, float b, float p) {
  switch (op) {
    case Binary::kAdd: return 1.f;
    case Binary::kSub: return 1.f;
    case Binary::kMul: return b;
    case Binary::kDiv: return 1.f / b;
    case Binary::kSquaredError: return 2.f * (a - b);
    case Binary::kPow: return b * powf(a, b - 1.f);
    case Binary::kMaximum: return a > b ? 1.f : 0.f;  // ties send the gradient to x1
    case Binary::kMinimum: return a < b ? 1.f : 0.f;
    case Binary::kSigmoidCrossEntropy: return sigmoidf(a) - b;
    case Binary::kBinaryCrossEntropy: return (a - b) / fmaxf(a - a * a, kTiny);
    case Binary::kAbsoluteError: return signf(a - b);
    case Binary::kHuberLoss: return huber_da(a, b, p);
    case Binary::kBinaryError: return 0.f;
  }
  return 0.f;
}
__device__ float binary_db(Binary op, float a, float b, float p) {
  switch (op) {
    case Binary::kAdd: return 1.f;
    case Binary::kSub: return -1.f;
    case Binary::kMul: return a;
    case Binary::kDiv: return -a / (b * b);
    case Binary::kSquaredError: return -2.f * (a - b);
    case Binary::kPow: return powf(a, b) * logf(a);
    case Binary::kMaximum: return a > b ? 0.f : 1.f;
    case Binary::kMinimum: return a < b ? 0.f : 1.f;
    case Binary::kSigmoidCrossEntropy: return 0.f;
    case Binary::kBinaryCrossEntropy: return logf(fmaxf(1.f - a, kTiny)) - logf(fmaxf(a, kTiny));
    case Binary::kAbsoluteError: return -signf(a - b);
    case Binary::kHuberLoss: return -huber_da(a, b, p);
    case Binary::kBinaryError: return 0.f;
  }
  return 0.f;
}

__device__ inline void broadcast_offsets(const BroadcastDims& d, int64_t i, int64_t& ia, int64_t& ib) {
  ia = ib = 0;
  for (int k = d.ndim - 1; k >= 0; --k) {
    const int64_t idx = i % d.out_shape[k];
    i /= d.out_shape[k];
    ia += idx * d.stride_a[k];
    ib += idx * d.stride_b[k];
  }
}

template <class T>
__global__ void binary_forward_kernel(Binary op, int64_t n, BroadcastDims d, bool same, const T* a, const T* b,
                                      T* y, float p) {
  NN_GRID_LOOP(i, n) {
    int64_t ia = i, ib = i;
    if (!same) broadcast_offsets(d, i, ia, ib);
    store(y, i, binary_f(op, load(a, ia), load(b, ib), p));
  }
}

// Adds g to one input's grad: elementwise at output index i (direct) or atomically at input offset ix.
template <class T>
__device__ inline void add_grad(const BinaryGrad<T>& t, int64_t i, int64_t ix, float g) {
  if (t.direct)
    store(t.direct, i, t.accum ? load(t.direct, i) + g : g);
  else
    atomicAdd(t.atomic + ix, g);
}

template <class T>
__global__ void binary_backward_kernel(Binary op, int64_t n, BroadcastDims d, bool same, const T* a, const T* b,
                                       const T* dy, float p, BinaryGrad<T> ga, BinaryGrad<T> gb) {
  const bool want_a = ga.direct || ga.atomic, want_b = gb.direct || gb.atomic;
  NN_GRID_LOOP(i, n) {
    int64_t ia = i, ib = i;
    if (!same) broadcast_offsets(d, i, ia, ib);
    const float va = load(a, ia), vb = load(b, ib), g = load(dy, i);
    if (want_a) add_grad(ga, i, ia, g * binary_da(op, va, vb, p));
    if (want_b) add_grad(gb, i, ib, g * binary_db(op, va, vb, p));
  }
}

template <class T>
__global__ void store_float_grad_kernel(int64_t n, const float* src, T* dst, bool accum) {
  NN_GRID_LOOP(i, n) store(dst, i, accum ? load(dst, i) + src[i] : src[i]);
}

}  // namespace

template <class T>
void unary_forward(cudaStream_t s, Unary op, int64_t n, const T* x, T* y, UnaryParams p) {
  if (n == 0) return;
  unary_forward_kernel<<<blocks_for(n), kThreads, 0, s>>>(op, n, x, y, p);
  check_launch("unary_forward_kernel");
}

template <class T>
void unary_backward(cudaStream_t s, Unary op, int64_t n, const T* x, const T* y, const T* dy, T* dx, UnaryParams p,
                    bool accum) {
  if (n == 0) return;
  unary_backward_kernel<<<blocks_for(n), kThreads, 0, s>>>(op, n, x, y, dy, dx, p, accum);
  check_launch("unary_backward_kernel");
}

template <class T>
void binary_forward(cudaStream_t s, Binary op, int64_t n, const BroadcastDims& d, bool same, const T* a,
                    const T* b, T* y, float param) {
  if (n == 0) return;
  binary_forward_kernel<<<blocks_for(n), kThreads, 0, s>>>(op, n, d, same, a, b, y, param);
  check_launch("binary_forward_kernel");
}

template <class T>
void binary_backward(cudaStream_t s, Binary op, int64_t n, const BroadcastDims& d, bool same, const T* a,
                     const T* b, const T* dy, float param, BinaryGrad<T> da, BinaryGrad<T> db) {
  const bool want_a = da.direct || da.atomic, want_b = db.direct || db.atomic;
  if (n == 0 || (!want_a && !want_b)) return;
  binary_backward_kernel<<<blocks_for(n), kThreads, 0, s>>>(op, n, d, same, a, b, dy, param, da, db);
  check_launch("binary_backward_kernel");
}

template <class T>
void store_float_grad(cudaStream_t s, int64_t n, const float* src, T* dst, bool accum) {
  launch_grid(s, "store_float_grad_kernel", n, store_float_grad_kernel<T>, src, dst, accum);
}

#define NN_INSTANTIATE_ELEMENTWISE(T)                                                                             \
  template void unary_forward<T>(cudaStream_t, Unary, int64_t, const T*, T*, UnaryParams);                        \
  template void unary_backward<T>(cudaStream_t, Unary, int64_t, const T*, const T*, const T*, T*, UnaryParams,    \
                                  bool);                                                                          \
  template void binary_forward<T>(cudaStream_t, Binary, int64_t, const BroadcastDims&, bool, const T*, const T*,  \
                                  T*, float);                                                                     \
  template void binary_backward<T>(cudaStream_t, Binary, int64_t, const BroadcastDims&, bool, const T*, const T*, \
                                   const T*, float, BinaryGrad<T>, BinaryGrad<T>);                                \
  template void store_float_grad<T>(cudaStream_t, int64_t, const float*, T*, bool);
NN_INSTANTIATE_ELEMENTWISE(float)
NN_INSTANTIATE_ELEMENTWISE(__half)
#undef NN_INSTANTIATE_ELEMENTWISE

}  // namespace nn::cuda::k
