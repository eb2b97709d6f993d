// Elementwise CUDA kernels: unary activations and scalar ops, broadcasting binary arithmetic and losses.
#include "cuda/kernels/kernels.hpp"
#include "cuda/kernels/launch.cuh"

namespace nn::cuda::k {
namespace {

__device__ inline float sigmoidf(float x) { return 1.f / (1.f + expf(-x)); }
constexpr float kGeluC = 0.7978845608028654f;  // sqrt(2 / pi)
constexpr float kGeluA = 0.044715f;

__device__ float unary_f(Unary op, float x, float a) {
  switch (op) {
    case Unary::kReLU: return x > 0.f ? x : 0.f;
    case Unary::kLeakyReLU: return x > 0.f ? x : a * x;
    case Unary::kELU: return x >= 0.f ? x : a * expm1f(x);
    case Unary::kSigmoid: return sigmoidf(x);
    case Unary::kTanh: return tanhf(x);
    case Unary::kSwish: return x * sigmoidf(x);
    case Unary::kGELU: return 0.5f * x * (1.f + tanhf(kGeluC * (x + kGeluA * x * x * x)));
    case Unary::kAddScalar: return x + a;
    case Unary::kMulScalar: return x * a;
    case Unary::kPowScalar: return powf(x, a);
    case Unary::kRSubScalar: return a - x;
    case Unary::kRDivScalar: return a / x;
    case Unary::kIdentity: return x;
  }
  return 0.f;
}

// dy/dx given x and y.
__device__ float unary_df(Unary op, float x, float y, float a) {
  switch (op) {
    case Unary::kReLU: return x > 0.f ? 1.f : 0.f;
    case Unary::kLeakyReLU: return x > 0.f ? 1.f : a;
    case Unary::kELU: return x >= 0.f ? 1.f : a * expf(x);
    case Unary::kSigmoid: return y * (1.f - y);
    case Unary::kTanh: return 1.f - y * y;
    case Unary::kSwish: return y + sigmoidf(x) * (1.f - y);
    case Unary::kGELU: {
      const float t = tanhf(kGeluC * (x + kGeluA * x * x * x));
      return 0.5f * (1.f + t) + 0.5f * x * (1.f - t * t) * kGeluC * (1.f + 3.f * kGeluA * x * x);
    }
    case Unary::kAddScalar: return 1.f;
    case Unary::kMulScalar: return a;
    case Unary::kPowScalar: return a * powf(x, a - 1.f);
    case Unary::kRSubScalar: return -1.f;
    case Unary::kRDivScalar: return -a / (x * x);
    case Unary::kIdentity: return 1.f;
  }
  return 0.f;
}

__global__ void unary_forward_kernel(Unary op, int64_t n, const float* x, float* y, float a) {
  NN_GRID_LOOP(i, n) y[i] = unary_f(op, x[i], a);
}

__global__ void unary_backward_kernel(Unary op, int64_t n, const float* x, const float* y, const float* dy,
                                      float* dx, float a, bool accum) {
  NN_GRID_LOOP(i, n) {
    const float g = dy[i] * unary_df(op, x ? x[i] : 0.f, y ? y[i] : 0.f, a);
    dx[i] = accum ? dx[i] + g : g;
  }
}

__device__ float binary_f(Binary op, float a, float b) {
  switch (op) {
    case Binary::kAdd: return a + b;
    case Binary::kSub: return a - b;
    case Binary::kMul: return a * b;
    case Binary::kDiv: return a / b;
    case Binary::kSquaredError: return (a - b) * (a - b);
  }
  return 0.f;
}
__device__ float binary_da(Binary op, float a, float b) {
  switch (op) {
    case Binary::kAdd: return 1.f;
    case Binary::kSub: return 1.f;
    case Binary::kMul: return b;
    case Binary::kDiv: return 1.f / b;
    case Binary::kSquaredError: return 2.f * (a - b);
  }
  return 0.f;
}
__device__ float binary_db(Binary op, float a, float b) {
  switch (op) {
    case Binary::kAdd: return 1.f;
    case Binary::kSub: return -1.f;
    case Binary::kMul: return a;
    case Binary::kDiv: return -a / (b * b);
    case Binary::kSquaredError: return -2.f * (a - b);
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

__global__ void binary_forward_kernel(Binary op, int64_t n, BroadcastDims d, bool same, const float* a,
                                      const float* b, float* y) {
  NN_GRID_LOOP(i, n) {
    int64_t ia = i, ib = i;
    if (!same) broadcast_offsets(d, i, ia, ib);
    y[i] = binary_f(op, a[ia], b[ib]);
  }
}

__global__ void binary_backward_kernel(Binary op, int64_t n, BroadcastDims d, bool same, const float* a,
                                       const float* b, const float* dy, float* da, float* db, bool accum_a,
                                       bool accum_b) {
  NN_GRID_LOOP(i, n) {
    int64_t ia = i, ib = i;
    if (!same) broadcast_offsets(d, i, ia, ib);
    const float va = a[ia], vb = b[ib];
    if (same) {
      if (da) da[i] = (accum_a ? da[i] : 0.f) + dy[i] * binary_da(op, va, vb);
      if (db) db[i] = (accum_b ? db[i] : 0.f) + dy[i] * binary_db(op, va, vb);
    } else {
      if (da) atomicAdd(da + ia, dy[i] * binary_da(op, va, vb));
      if (db) atomicAdd(db + ib, dy[i] * binary_db(op, va, vb));
    }
  }
}

}  // namespace

void unary_forward(cudaStream_t s, Unary op, int64_t n, const float* x, float* y, float alpha) {
  if (n == 0) return;
  unary_forward_kernel<<<blocks_for(n), kThreads, 0, s>>>(op, n, x, y, alpha);
  check_launch("unary_forward_kernel");
}

void unary_backward(cudaStream_t s, Unary op, int64_t n, const float* x, const float* y, const float* dy,
                    float* dx, float alpha, bool accum) {
  if (n == 0) return;
  unary_backward_kernel<<<blocks_for(n), kThreads, 0, s>>>(op, n, x, y, dy, dx, alpha, accum);
  check_launch("unary_backward_kernel");
}

void binary_forward(cudaStream_t s, Binary op, int64_t n, const BroadcastDims& d, bool same, const float* a,
                    const float* b, float* y) {
  if (n == 0) return;
  binary_forward_kernel<<<blocks_for(n), kThreads, 0, s>>>(op, n, d, same, a, b, y);
  check_launch("binary_forward_kernel");
}

void binary_backward(cudaStream_t s, Binary op, int64_t n, const BroadcastDims& d, bool same, const float* a,
                     const float* b, const float* dy, float* da, float* db, bool accum_a, bool accum_b) {
  if (n == 0 || (!da && !db)) return;
  binary_backward_kernel<<<blocks_for(n), kThreads, 0, s>>>(op, n, d, same, a, b, dy, da, db, accum_a, accum_b);
  check_launch("binary_backward_kernel");
}

}  // namespace nn::cuda::k
