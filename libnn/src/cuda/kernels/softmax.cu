// Softmax, LogSoftmax and SoftmaxCrossEntropy kernels along the middle axis of (outer, size, inner).
#include "cuda/kernels/kernels.hpp"
#include "cuda/kernels/launch.cuh"

namespace nn::cuda::k {
namespace {

__device__ inline int64_t line_offset(int64_t l, int64_t size, int64_t inner) {
  return (l / inner) * size * inner + l % inner;
}

// Writes log-softmax (log) or softmax of line l of x into out.
__device__ void softmax_line(const float* x, float* out, int64_t size, int64_t inner, bool log) {
  float m = x[0];
  for (int64_t c = 1; c < size; ++c) m = fmaxf(m, x[c * inner]);
  float sum = 0.f;
  for (int64_t c = 0; c < size; ++c) sum += expf(x[c * inner] - m);
  if (log) {
    // (x - max) - log(sum), as the CPU LogSoftmax: folding max + log(sum) first loses digits for large x.
    const float log_sum = logf(sum);
    for (int64_t c = 0; c < size; ++c) out[c * inner] = (x[c * inner] - m) - log_sum;
  } else {
    for (int64_t c = 0; c < size; ++c) out[c * inner] = expf(x[c * inner] - m) / sum;
  }
}

__global__ void softmax_forward_kernel(int64_t lines, int64_t size, int64_t inner, const float* x, float* y,
                                       bool log) {
  NN_GRID_LOOP(l, lines) {
    const int64_t off = line_offset(l, size, inner);
    softmax_line(x + off, y + off, size, inner, log);
  }
}

// softmax: dx = y (dy - sum(dy y)); log-softmax: dx = dy - exp(y) sum(dy).
__global__ void softmax_backward_kernel(int64_t lines, int64_t size, int64_t inner, const float* y,
                                        const float* dy, float* dx, bool log, bool accum) {
  NN_GRID_LOOP(l, lines) {
    const int64_t off = line_offset(l, size, inner);
    float sum = 0.f;
    for (int64_t c = 0; c < size; ++c) {
      const int64_t i = off + c * inner;
      sum += log ? dy[i] : dy[i] * y[i];
    }
    for (int64_t c = 0; c < size; ++c) {
      const int64_t i = off + c * inner;
      const float g = log ? dy[i] - expf(y[i]) * sum : y[i] * (dy[i] - sum);
      dx[i] = accum ? dx[i] + g : g;
    }
  }
}

__global__ void sce_forward_kernel(int64_t lines, int64_t size, int64_t inner, const float* x, const float* label,
                                   float* log_p, float* y) {
  NN_GRID_LOOP(l, lines) {
    const int64_t off = line_offset(l, size, inner);
    softmax_line(x + off, log_p + off, size, inner, true);
    y[l] = -log_p[off + int64_t(label[l]) * inner];
  }
}

__global__ void sce_backward_kernel(int64_t lines, int64_t size, int64_t inner, const float* log_p,
                                    const float* label, const float* dy, float* dx, bool accum) {
  NN_GRID_LOOP(l, lines) {
    const int64_t off = line_offset(l, size, inner);
    const int64_t k = int64_t(label[l]);
    for (int64_t c = 0; c < size; ++c) {
      const int64_t i = off + c * inner;
      const float g = dy[l] * (expf(log_p[i]) - (c == k ? 1.f : 0.f));
      dx[i] = accum ? dx[i] + g : g;
    }
  }
}

}  // namespace

void softmax_forward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* x, float* y,
                     bool log) {
  const int64_t lines = outer * inner;
  if (lines == 0 || size == 0) return;
  softmax_forward_kernel<<<blocks_for(lines), kThreads, 0, s>>>(lines, size, inner, x, y, log);
  check_launch("softmax_forward_kernel");
}

void softmax_backward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* y, const float* dy,
                      float* dx, bool log, bool accum) {
  const int64_t lines = outer * inner;
  if (lines == 0 || size == 0) return;
  softmax_backward_kernel<<<blocks_for(lines), kThreads, 0, s>>>(lines, size, inner, y, dy, dx, log, accum);
  check_launch("softmax_backward_kernel");
}

void softmax_cross_entropy_forward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* x,
                                   const float* label, float* log_p, float* y) {
  const int64_t lines = outer * inner;
  if (lines == 0 || size == 0) return;
  sce_forward_kernel<<<blocks_for(lines), kThreads, 0, s>>>(lines, size, inner, x, label, log_p, y);
  check_launch("sce_forward_kernel");
}

void softmax_cross_entropy_backward(cudaStream_t s, int64_t outer, int64_t size, int64_t inner, const float* log_p,
                                    const float* label, const float* dy, float* dx, bool accum) {
  const int64_t lines = outer * inner;
  if (lines == 0 || size == 0) return;
  sce_backward_kernel<<<blocks_for(lines), kThreads, 0, s>>>(lines, size, inner, log_p, label, dy, dx, accum);
  check_launch("sce_backward_kernel");
}

}  // namespace nn::cuda::k
