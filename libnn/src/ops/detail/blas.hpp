// Row-major single-precision GEMM: small products on a kernel of our own, the rest on oneDNN's sgemm (OpenBLAS,
// opened on first use, in builds without oneDNN); see blas.cpp.
#pragma once
#include <cstdint>

namespace nn::ops {
// C = alpha * op(A) * op(B) + beta * C (row-major, cblas_sgemm's contract; k > 0).
void blas_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
// Whether blas_sgemm runs this product on its own one-thread kernel (small products without transposes), whatever
// the team size: a caller with many such products shares them out among threads instead.
bool blas_product_on_one_thread(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k);
// OpenBLAS's own thread count (its pthread build; the OpenMP build follows omp_get_max_threads()); with
// oneDNN's sgemm, which follows omp_get_max_threads() too, get returns 1 and set does nothing.
int blas_get_threads();
void blas_set_threads(int threads);
}  // namespace nn::ops
