// Array kernels of the activations that cost the most in CNNs (sigmoid, swish): AVX-512 where the CPU has it
// (nncli is built for AVX2), the vectorizable scalar forms of fast_math.hpp elsewhere.
#pragma once
#include <cstdint>

namespace nn::ops {

// Whether the CPU runs AVX-512F (kernels compiled for it apart from the AVX2 build).
bool cpu_has_avx512();

// y[i] = 1 / (1 + exp(-x[i])) and y[i] = x[i] * that, for i < n; y may be x. Within 2e-7 of the exact
// values relative to them (results below 1e-38 in magnitude only roughly); NaN stays NaN.
void sigmoid_array(const float* x, float* y, int64_t n);
void swish_array(const float* x, float* y, int64_t n);

}  // namespace nn::ops
