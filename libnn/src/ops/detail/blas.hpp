// Row-major single-precision GEMM behind a loader: OpenBLAS is opened on the first call, not at start-up.
#pragma once
#include <cstdint>

namespace nn::ops {
// C = alpha * op(A) * op(B) + beta * C (row-major, cblas_sgemm's contract; k > 0).
void blas_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
// OpenBLAS's own thread count (its pthread build; the OpenMP build follows omp_get_max_threads()).
int blas_get_threads();
void blas_set_threads(int threads);
}  // namespace nn::ops
