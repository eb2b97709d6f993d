// Array kernels of the activations that cost the most in CNNs (sigmoid, swish) and transformers (softmax): AVX-512
// where the CPU has it (nncli is built for AVX2), the vectorizable scalar forms of fast_math.hpp elsewhere.
#pragma once
#include <cstdint>
#include <utility>

namespace nn::ops {

// Whether the CPU runs AVX-512F (kernels compiled for it apart from the AVX2 build).
bool cpu_has_avx512();

// y[i] = 1 / (1 + exp(-x[i])) and y[i] = x[i] * that, for i < n; y may be x. Within 2e-7 of the exact
// values relative to them (results below 1e-38 in magnitude only roughly); NaN stays NaN.
void sigmoid_array(const float* x, float* y, int64_t n);
void swish_array(const float* x, float* y, int64_t n);

// e[i] = exp(x[i] - m) for i < n (n > 0), m the largest x[i]; returns (m, sum of e): softmax's shifted numerators
// and their sum, along one line. e may be x. Within 2e-7 of the exact values relative to them (those below 1e-38
// only roughly); a NaN in x makes the sum NaN.
std::pair<float, float> exp_shifted_array(const float* x, float* e, int64_t n);

}  // namespace nn::ops
