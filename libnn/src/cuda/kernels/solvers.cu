// Solver updates and gradient utilities on the device: the CPU rules of libnn/src/solvers, element by element.
#include <algorithm>

#include "cuda/kernels/launch.cuh"
#include "cuda/kernels/solvers.hpp"

namespace nn::cuda::k {
namespace {

// std::max / std::min as the CPU rules use them (the first argument wins ties and NaN comparisons).
__device__ inline float std_max(float a, float b) { return a < b ? b : a; }
__device__ inline float std_min(float a, float b) { return b < a ? b : a; }

// Sums the kThreads doubles of `shared` into shared[0] (blockDim.x == kThreads, a power of two).
__device__ void block_sum(double* shared) {
  __syncthreads();
  for (int w = kThreads / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) shared[threadIdx.x] += shared[threadIdx.x + w];
    __syncthreads();
  }
}

__global__ void sum_squares_partial_kernel(int64_t n, const float* x, double* partials) {
  __shared__ double shared[kThreads];
  double sum = 0.0;
  NN_GRID_LOOP(i, n) {
    const double v = x[i];
    sum += v * v;
  }
  shared[threadIdx.x] = sum;
  block_sum(shared);
  if (threadIdx.x == 0) partials[blockIdx.x] = shared[0];
}

__global__ void sum_partials_kernel(int count, const double* partials, double* out) {
  __shared__ double shared[kThreads];
  double sum = 0.0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) sum += partials[i];
  shared[threadIdx.x] = sum;
  block_sum(shared);
  if (threadIdx.x == 0) *out = shared[0];
}

__global__ void add_scaled_kernel(int64_t n, float* g, const float* w, float rate) {
  NN_GRID_LOOP(i, n) g[i] += rate * w[i];
}

__global__ void scale_kernel(int64_t n, float* g, float scale) { NN_GRID_LOOP(i, n) g[i] *= scale; }

__global__ void clip_by_norm_kernel(int64_t n, float* g, const double* sum_sq, double norm) {
  const double sum = *sum_sq;
  if (!(sum > 0.0 && sum > norm * norm)) return;
  const float factor = float(norm / sqrt(sum));
  NN_GRID_LOOP(i, n) g[i] *= factor;
}

__global__ void flag_if_any_kernel(int64_t n, const float* g, FloatCheck check, int* flag) {
  bool found = false;
  NN_GRID_LOOP(i, n) {
    const float v = g[i];
    found = found || (check == FloatCheck::kInf ? isinf(v) : check == FloatCheck::kNan ? isnan(v) : !isfinite(v));
  }
  if (found) *flag = 1;  // every writer stores the same value
}

__global__ void sgd_kernel(int64_t n, float* x, const float* g, float lr) { NN_GRID_LOOP(i, n) x[i] -= lr * g[i]; }

__global__ void momentum_kernel(int64_t n, float* x, const float* g, float* v, float lr, float momentum,
                                float decay) {
  NN_GRID_LOOP(i, n) {
    v[i] = momentum * v[i] + lr * g[i];
    x[i] = decay == 0.f ? x[i] - v[i] : x[i] - v[i] - decay * x[i];
  }
}

__global__ void nesterov_kernel(int64_t n, float* x, const float* g, float* v, float lr, float momentum) {
  NN_GRID_LOOP(i, n) {
    const float v_prev = v[i];
    v[i] = momentum * v[i] - lr * g[i];
    x[i] += -momentum * v_prev + (1 + momentum) * v[i];
  }
}

__global__ void lars_kernel(int64_t n, float* x, const float* g, float* v, const double* sums, float lr,
                            float momentum, float coefficient, float eps, float decay) {
  // The scalar part of the CPU rule, in the same double/float mix, evaluated by every thread.
  const double g_norm = sqrt(sums[0]);
  const double x_norm = sqrt(sums[1]);
  double denom = g_norm + decay * x_norm;
  if (denom < eps) denom += eps;
  const float local_lr = x_norm < eps ? lr : float(lr * coefficient * x_norm / denom);
  NN_GRID_LOOP(i, n) {
    v[i] = momentum * v[i] + local_lr * (g[i] + decay * x[i]);
    x[i] -= v[i];
  }
}

__global__ void adadelta_kernel(int64_t n, float* x, const float* g, float* e_sqr_grad, float* e_sqr_delta,
                                float lr, float decay, float eps) {
  NN_GRID_LOOP(i, n) {
    e_sqr_grad[i] = e_sqr_grad[i] * decay + g[i] * g[i] * (1 - decay);
    const float delta = sqrtf((e_sqr_delta[i] + eps) / (e_sqr_grad[i] + eps)) * g[i];
    e_sqr_delta[i] = e_sqr_delta[i] * decay + delta * delta * (1 - decay);
    x[i] -= lr * delta;
  }
}

__global__ void adagrad_kernel(int64_t n, float* x, const float* g, float* v, float lr, float eps) {
  NN_GRID_LOOP(i, n) {
    v[i] += g[i] * g[i];
    x[i] -= lr * g[i] / (sqrtf(v[i]) + eps);
  }
}

__global__ void rmsprop_kernel(int64_t n, float* x, const float* g, float* v, float lr, float decay, float eps) {
  NN_GRID_LOOP(i, n) {
    v[i] = v[i] * decay + g[i] * g[i] * (1 - decay);
    x[i] -= lr / (sqrtf(v[i]) + eps) * g[i];
  }
}

__global__ void rmsprop_graves_kernel(int64_t n, float* x, const float* g, float* sq, float* mean, float* d,
                                      float lr, float decay, float momentum, float eps) {
  NN_GRID_LOOP(i, n) {
    sq[i] = decay * sq[i] + (1 - decay) * g[i] * g[i];
    mean[i] = decay * mean[i] + (1 - decay) * g[i];
    d[i] = momentum * d[i] - lr * g[i] / sqrtf(sq[i] - mean[i] * mean[i] + eps);
    x[i] += d[i];
  }
}

__global__ void adam_kernel(int64_t n, float* x, const float* g, float* m, float* v, float alpha_t, float beta1,
                            float beta2, float eps, float decay) {
  NN_GRID_LOOP(i, n) {
    m[i] = beta1 * m[i] + (1 - beta1) * g[i];
    v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
    const float step = alpha_t * m[i] / (sqrtf(v[i]) + eps);
    x[i] = decay == 0.f ? x[i] - step : x[i] - step - decay * x[i];
  }
}

__global__ void adamax_kernel(int64_t n, float* x, const float* g, float* m, float* u, float alpha_t, float beta1,
                              float beta2, float eps) {
  NN_GRID_LOOP(i, n) {
    m[i] = beta1 * m[i] + (1 - beta1) * g[i];
    u[i] = std_max(beta2 * u[i], fabsf(g[i]));
    x[i] = x[i] - alpha_t * m[i] / (u[i] + eps);
  }
}

__global__ void amsgrad_kernel(int64_t n, float* x, const float* g, float* m, float* v, float* v_hat,
                               float alpha_t, float beta1, float beta2, float eps) {
  NN_GRID_LOOP(i, n) {
    m[i] = beta1 * m[i] + (1 - beta1) * g[i];
    v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
    v_hat[i] = std_max(v_hat[i], v[i]);
    x[i] = x[i] - alpha_t * m[i] / (sqrtf(v_hat[i]) + eps);
  }
}

__global__ void adabelief_kernel(int64_t n, float* x, const float* g, float* m, float* var, float* s_max,
                                 float alpha_t, float beta1, float beta2, float eps, float decay, bool sgd_step) {
  NN_GRID_LOOP(i, n) {
    m[i] = beta1 * m[i] + (1 - beta1) * g[i];
    const float diff = g[i] - m[i];
    var[i] = beta2 * var[i] + (1 - beta2) * diff * diff;
    x[i] = x[i] - x[i] * decay;
    if (s_max) s_max[i] = std_max(s_max[i], var[i]);
    if (sgd_step) {
      x[i] = x[i] - alpha_t * m[i];
    } else {
      const float s_t = s_max ? s_max[i] : var[i];
      x[i] = x[i] - alpha_t * m[i] / (sqrtf(s_t + eps) + eps);
    }
  }
}

__global__ void bounded_adam_kernel(int64_t n, float* x, const float* g, float* m, float* v, float* v_hat,
                                    float alpha_t, float beta1, float beta2, float eps, float lower, float upper) {
  NN_GRID_LOOP(i, n) {
    m[i] = beta1 * m[i] + (1 - beta1) * g[i];
    v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
    float denom_v = v[i];
    if (v_hat) {
      v_hat[i] = std_max(v_hat[i], v[i]);
      denom_v = v_hat[i];
    }
    const float eta = std_min(upper, std_max(alpha_t / (sqrtf(denom_v) + eps), lower));
    x[i] = x[i] - eta * m[i];
  }
}

__global__ void lamb_direction_kernel(int64_t n, const float* x, const float* g, float* m, float* v, float* r,
                                      float beta1, float beta2, float eps, float c1, float c2, float decay) {
  NN_GRID_LOOP(i, n) {
    m[i] = beta1 * m[i] + (1 - beta1) * g[i];
    v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
    r[i] = (m[i] / c1) / (sqrtf(v[i] / c2) + eps) + decay * x[i];
  }
}

__global__ void lamb_apply_kernel(int64_t n, float* x, const float* r, const double* sums, float eta,
                                  float gamma_l, float gamma_u, float eps) {
  const double r_norm = sqrt(sums[0]);
  double x_norm = sqrt(sums[1]);
  if (x_norm < gamma_l) x_norm = gamma_l;
  if (x_norm > gamma_u) x_norm = gamma_u;
  const float step = float(eta * (r_norm > eps ? x_norm / r_norm : 1.0));
  NN_GRID_LOOP(i, n) x[i] -= step * r[i];
}

__global__ void lion_kernel(int64_t n, float* x, const float* g, float* m, float lr, float beta1, float beta2,
                            float decay) {
  NN_GRID_LOOP(i, n) {
    const float mixed = g[i] + beta1 * (m[i] - g[i]);
    const float u = float((mixed > 0.0f) - (mixed < 0.0f));
    m[i] = g[i] + beta2 * (m[i] - g[i]);
    x[i] -= lr * (u + decay * x[i]);
  }
}

}  // namespace

void sum_of_squares(cudaStream_t s, int64_t n, const float* x, double* partials, double* out) {
  const unsigned blocks = n > 0 ? std::min<unsigned>(blocks_for(n), kNormPartials) : 1u;
  sum_squares_partial_kernel<<<blocks, kThreads, 0, s>>>(n, x, partials);
  check_launch("sum_squares_partial_kernel");
  sum_partials_kernel<<<1, kThreads, 0, s>>>(int(blocks), partials, out);
  check_launch("sum_partials_kernel");
}

void add_scaled(cudaStream_t s, int64_t n, float* g, const float* w, float rate) {
  launch_grid(s, "add_scaled_kernel", n, add_scaled_kernel, g, w, rate);
}

void scale_values(cudaStream_t s, int64_t n, float* g, float scale) {
  launch_grid(s, "scale_kernel", n, scale_kernel, g, scale);
}

void clip_by_norm(cudaStream_t s, int64_t n, float* g, const double* sum_sq, double norm) {
  launch_grid(s, "clip_by_norm_kernel", n, clip_by_norm_kernel, g, sum_sq, norm);
}

void flag_if_any(cudaStream_t s, int64_t n, const float* g, FloatCheck check, int* flag) {
  launch_grid(s, "flag_if_any_kernel", n, flag_if_any_kernel, g, check, flag);
}

void sgd_update(cudaStream_t s, int64_t n, float* x, const float* g, float lr) {
  launch_grid(s, "sgd_kernel", n, sgd_kernel, x, g, lr);
}

void momentum_update(cudaStream_t s, int64_t n, float* x, const float* g, float* v, float lr, float momentum,
                     float decay) {
  launch_grid(s, "momentum_kernel", n, momentum_kernel, x, g, v, lr, momentum, decay);
}

void nesterov_update(cudaStream_t s, int64_t n, float* x, const float* g, float* v, float lr, float momentum) {
  launch_grid(s, "nesterov_kernel", n, nesterov_kernel, x, g, v, lr, momentum);
}

void lars_update(cudaStream_t s, int64_t n, float* x, const float* g, float* v, const double* sums, float lr,
                 float momentum, float coefficient, float eps, float decay) {
  launch_grid(s, "lars_kernel", n, lars_kernel, x, g, v, sums, lr, momentum, coefficient, eps, decay);
}

void adadelta_update(cudaStream_t s, int64_t n, float* x, const float* g, float* e_sqr_grad, float* e_sqr_delta,
                     float lr, float decay, float eps) {
  launch_grid(s, "adadelta_kernel", n, adadelta_kernel, x, g, e_sqr_grad, e_sqr_delta, lr, decay, eps);
}

void adagrad_update(cudaStream_t s, int64_t n, float* x, const float* g, float* v, float lr, float eps) {
  launch_grid(s, "adagrad_kernel", n, adagrad_kernel, x, g, v, lr, eps);
}

void rmsprop_update(cudaStream_t s, int64_t n, float* x, const float* g, float* v, float lr, float decay,
                    float eps) {
  launch_grid(s, "rmsprop_kernel", n, rmsprop_kernel, x, g, v, lr, decay, eps);
}

void rmsprop_graves_update(cudaStream_t s, int64_t n, float* x, const float* g, float* sq, float* mean, float* d,
                           float lr, float decay, float momentum, float eps) {
  launch_grid(s, "rmsprop_graves_kernel", n, rmsprop_graves_kernel, x, g, sq, mean, d, lr, decay, momentum, eps);
}

void adam_update(cudaStream_t s, int64_t n, float* x, const float* g, float* m, float* v, float alpha_t,
                 float beta1, float beta2, float eps, float decay) {
  launch_grid(s, "adam_kernel", n, adam_kernel, x, g, m, v, alpha_t, beta1, beta2, eps, decay);
}

void adamax_update(cudaStream_t s, int64_t n, float* x, const float* g, float* m, float* u, float alpha_t,
                   float beta1, float beta2, float eps) {
  launch_grid(s, "adamax_kernel", n, adamax_kernel, x, g, m, u, alpha_t, beta1, beta2, eps);
}

void amsgrad_update(cudaStream_t s, int64_t n, float* x, const float* g, float* m, float* v, float* v_hat,
                    float alpha_t, float beta1, float beta2, float eps) {
  launch_grid(s, "amsgrad_kernel", n, amsgrad_kernel, x, g, m, v, v_hat, alpha_t, beta1, beta2, eps);
}

void adabelief_update(cudaStream_t s, int64_t n, float* x, const float* g, float* m, float* var, float* s_max,
                      float alpha_t, float beta1, float beta2, float eps, float decay, bool sgd_step) {
  launch_grid(s, "adabelief_kernel", n, adabelief_kernel, x, g, m, var, s_max, alpha_t, beta1, beta2, eps, decay,
              sgd_step);
}

void bounded_adam_update(cudaStream_t s, int64_t n, float* x, const float* g, float* m, float* v, float* v_hat,
                         float alpha_t, float beta1, float beta2, float eps, float lower, float upper) {
  launch_grid(s, "bounded_adam_kernel", n, bounded_adam_kernel, x, g, m, v, v_hat, alpha_t, beta1, beta2, eps,
              lower, upper);
}

void lamb_direction(cudaStream_t s, int64_t n, const float* x, const float* g, float* m, float* v, float* r,
                    float beta1, float beta2, float eps, float c1, float c2, float decay) {
  launch_grid(s, "lamb_direction_kernel", n, lamb_direction_kernel, x, g, m, v, r, beta1, beta2, eps, c1, c2,
              decay);
}

void lamb_apply(cudaStream_t s, int64_t n, float* x, const float* r, const double* sums, float eta, float gamma_l,
                float gamma_u, float eps) {
  launch_grid(s, "lamb_apply_kernel", n, lamb_apply_kernel, x, r, sums, eta, gamma_l, gamma_u, eps);
}

void lion_update(cudaStream_t s, int64_t n, float* x, const float* g, float* m, float lr, float beta1, float beta2,
                 float decay) {
  launch_grid(s, "lion_kernel", n, lion_kernel, x, g, m, lr, beta1, beta2, decay);
}

}  // namespace nn::cuda::k
