// Launchers of the solver kernels (kernels/solvers.cu): one thread per element, the same float rules and
// operation order as the CPU solvers in libnn/src/solvers, plus the gradient utilities of the Solver base.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace nn::cuda::k {

// Partial sums a norm reduction uses: sum_of_squares needs kNormPartials doubles of scratch.
constexpr int kNormPartials = 512;
// *out = sum of x[i]^2 in double (deterministic: per-block partials, then one block sums them).
void sum_of_squares(cudaStream_t s, int64_t n, const float* x, double* partials, double* out);

// Gradient utilities: g += rate w; g *= scale; clipping by a device-side sum of squares (when
// *sum_sq > 0 and *sum_sq > norm^2: g *= float(norm / sqrt(*sum_sq))).
void add_scaled(cudaStream_t s, int64_t n, float* g, const float* w, float rate);
void scale_values(cudaStream_t s, int64_t n, float* g, float scale);
void clip_by_norm(cudaStream_t s, int64_t n, float* g, const double* sum_sq, double norm);
// Sets *flag = 1 when an element of g is inf (kInf), nan (kNan) or either (kNonFinite); never clears it.
enum class FloatCheck : int { kInf, kNan, kNonFinite };
void flag_if_any(cudaStream_t s, int64_t n, const float* g, FloatCheck check, int* flag);

// x -= lr g
void sgd_update(cudaStream_t s, int64_t n, float* x, const float* g, float lr);
// Momentum / SgdW: v = momentum v + lr g; x = x - v - decay x (decay 0 for Momentum).
void momentum_update(cudaStream_t s, int64_t n, float* x, const float* g, float* v, float lr, float momentum,
                     float decay);
// v' = momentum v - lr g; x += -momentum v + (1 + momentum) v'
void nesterov_update(cudaStream_t s, int64_t n, float* x, const float* g, float* v, float lr, float momentum);
// Lars, with sums = {sum g^2, sum x^2} on the device (from sum_of_squares).
void lars_update(cudaStream_t s, int64_t n, float* x, const float* g, float* v, const double* sums, float lr,
                 float momentum, float coefficient, float eps, float decay);
void adadelta_update(cudaStream_t s, int64_t n, float* x, const float* g, float* e_sqr_grad, float* e_sqr_delta,
                     float lr, float decay, float eps);
void adagrad_update(cudaStream_t s, int64_t n, float* x, const float* g, float* v, float lr, float eps);
void rmsprop_update(cudaStream_t s, int64_t n, float* x, const float* g, float* v, float lr, float decay,
                    float eps);
void rmsprop_graves_update(cudaStream_t s, int64_t n, float* x, const float* g, float* sq, float* mean, float* d,
                           float lr, float decay, float momentum, float eps);
// Adam / AdamW: x = x - alpha_t m / (sqrt(v) + eps) - decay x (decay 0 for Adam).
void adam_update(cudaStream_t s, int64_t n, float* x, const float* g, float* m, float* v, float alpha_t,
                 float beta1, float beta2, float eps, float decay);
void adamax_update(cudaStream_t s, int64_t n, float* x, const float* g, float* m, float* u, float alpha_t,
                   float beta1, float beta2, float eps);
void amsgrad_update(cudaStream_t s, int64_t n, float* x, const float* g, float* m, float* v, float* v_hat,
                    float alpha_t, float beta1, float beta2, float eps);
// AdaBelief; s_max null without amsgrad; sgd_step: the rectified plain momentum step (x -= alpha_t m).
void adabelief_update(cudaStream_t s, int64_t n, float* x, const float* g, float* m, float* var, float* s_max,
                      float alpha_t, float beta1, float beta2, float eps, float decay, bool sgd_step);
// AdaBound (v_hat null) / AMSBound: x -= min(upper, max(alpha_t / (sqrt(v or v_hat) + eps), lower)) m.
void bounded_adam_update(cudaStream_t s, int64_t n, float* x, const float* g, float* m, float* v, float* v_hat,
                         float alpha_t, float beta1, float beta2, float eps, float lower, float upper);
// Lamb in two kernels around the norms: lamb_direction updates m, v and writes r; with
// sums = {sum r^2, sum x^2}, lamb_apply does x -= float(eta * trust ratio) r.
void lamb_direction(cudaStream_t s, int64_t n, const float* x, const float* g, float* m, float* v, float* r,
                    float beta1, float beta2, float eps, float c1, float c2, float decay);
void lamb_apply(cudaStream_t s, int64_t n, float* x, const float* r, const double* sums, float eta, float gamma_l,
                float gamma_u, float eps);
void lion_update(cudaStream_t s, int64_t n, float* x, const float* g, float* m, float lr, float beta1, float beta2,
                 float decay);

}  // namespace nn::cuda::k
