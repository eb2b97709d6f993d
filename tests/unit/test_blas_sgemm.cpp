// nn::ops::blas_sgemm against a double-precision product: the register-blocked small kernel's block edges
// (rows past a multiple of 4, columns past a multiple of 16, a single column), beta 0/1/other, transposes
// and a product large enough for the library behind it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ops/detail/blas.hpp"

namespace {

struct Shape {
  int64_t m, n, k;
  bool trans_a, trans_b;
};

void check(const Shape& s, float alpha, float beta, int64_t b_padding = 5) {
  std::mt19937 rng(unsigned(s.m * 131 + s.n * 17 + s.k));
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const int64_t lda = (s.trans_a ? s.m : s.k) + 3, ldb = (s.trans_b ? s.k : s.n) + b_padding, ldc = s.n + 2;
  std::vector<float> a((s.trans_a ? s.k : s.m) * lda), b((s.trans_b ? s.n : s.k) * ldb), c(s.m * ldc);
  for (float& v : a) v = u(rng);
  for (float& v : b) v = u(rng);
  for (float& v : c) v = beta == 0.f ? std::numeric_limits<float>::quiet_NaN() : u(rng);  // beta 0 ignores C
  const std::vector<float> c0 = c;
  nn::ops::blas_sgemm(s.trans_a, s.trans_b, s.m, s.n, s.k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(),
                      ldc);
  for (int64_t i = 0; i < s.m; ++i) {
    for (int64_t j = 0; j < s.n; ++j) {
      double sum = 0.0;
      for (int64_t p = 0; p < s.k; ++p) {
        const double av = s.trans_a ? a[p * lda + i] : a[i * lda + p];
        const double bv = s.trans_b ? b[j * ldb + p] : b[p * ldb + j];
        sum += av * bv;
      }
      const double want = alpha * sum + (beta == 0.f ? 0.0 : double(beta) * c0[i * ldc + j]);
      ASSERT_NEAR(c[i * ldc + j], want, 1e-5 * (1.0 + std::sqrt(double(s.k)) + std::fabs(want)))
          << "m=" << s.m << " n=" << s.n << " k=" << s.k << " at (" << i << ", " << j << ") beta=" << beta;
    }
    for (int64_t j = s.n; j < ldc; ++j) {
      if (beta != 0.f) ASSERT_EQ(c[i * ldc + j], c0[i * ldc + j]) << "wrote past column n";
    }
  }
}

TEST(BlasSgemm, SmallKernelBlockEdges) {
  for (int64_t m : {1, 3, 4, 5, 16, 17})
    for (int64_t n : {1, 15, 16, 17, 50, 576})
      for (int64_t k : {1, 25, 256})
        for (float beta : {0.f, 1.f, 0.5f}) check({m, n, k, false, false}, 1.5f, beta);
}

// A matrix times a contiguous vector (a 1x1 convolution over a 1x1 map): the vectorized dot product's
// 32- and 8-float steps and its scalar tail.
TEST(BlasSgemm, MatrixVectorContiguous) {
  for (int64_t k : {1, 7, 8, 31, 32, 33, 100, 1152})
    for (float beta : {0.f, 0.5f}) check({48, 1, k, false, false}, 1.5f, beta, 0);
}

TEST(BlasSgemm, TransposesAndLargeProducts) {
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      check({37, 29, 41, ta, tb}, 1.f, 0.f);
      check({128, 256, 784, ta, tb}, 1.f, 1.f);  // past the small kernel: the library's product
    }
}

}  // namespace
