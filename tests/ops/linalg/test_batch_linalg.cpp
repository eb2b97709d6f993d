// BatchDet, BatchInv, BatchLogdet, BatchCholesky against double references (cofactors, adjugate, Cholesky).
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"

using namespace nn::test;

namespace {

using M = std::vector<double>;

double det_cofactor(const M& a, int64_t n) {
  if (n == 1) return a[0];
  double d = 0;
  for (int64_t c = 0; c < n; ++c) {
    M sub;
    for (int64_t i = 1; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (j != c) sub.push_back(a[size_t(i * n + j)]);
    d += (c % 2 ? -1 : 1) * a[size_t(c)] * det_cofactor(sub, n - 1);
  }
  return d;
}

M inverse_adjugate(const M& a, int64_t n) {
  double d = det_cofactor(a, n);
  M inv(size_t(n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      M sub;
      for (int64_t r = 0; r < n; ++r)
        for (int64_t c = 0; c < n; ++c)
          if (r != i && c != j) sub.push_back(a[size_t(r * n + c)]);
      double cof = ((i + j) % 2 ? -1 : 1) * (n == 1 ? 1.0 : det_cofactor(sub, n - 1));
      inv[size_t(j * n + i)] = cof / d;
    }
  return inv;
}

// Applies f to each (N, N) matrix of a (B, N, N) input.
Reference per_matrix(std::function<M(const M&, int64_t)> f, bool scalar_out) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    const int64_t B = in[0].shape[0], n = in[0].shape[1];
    RefArray y{scalar_out ? nn::Shape{B} : in[0].shape, {}};
    for (int64_t b = 0; b < B; ++b) {
      M a(in[0].data.begin() + b * n * n, in[0].data.begin() + (b + 1) * n * n);
      M r = f(a, n);
      y.data.insert(y.data.end(), r.begin(), r.end());
    }
    return std::vector<RefArray>{y};
  };
}

RefArray well_conditioned(int64_t B, int64_t n, std::mt19937& rng) {
  RefArray a = random_input({B, n, n}, rng);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < n; ++i) a.data[size_t((b * n + i) * n + i)] += (i % 2 ? -2.0 : 2.0);
  return a;
}

RefArray spd(int64_t B, int64_t n, std::mt19937& rng) {
  RefArray m = random_input({B, n, n}, rng);
  RefArray a{{B, n, n}, std::vector<double>(size_t(B * n * n), 0.0)};
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = i == j ? double(n) : 0.0;
        for (int64_t k = 0; k < n; ++k)
          s += m.data[size_t((b * n + i) * n + k)] * m.data[size_t((b * n + j) * n + k)];
        a.data[size_t((b * n + i) * n + j)] = double(float(s));
      }
  return a;
}

}  // namespace

TEST(BatchDet, Small) {
  std::mt19937 rng(1);
  for (int64_t n : {1, 2, 3})
    run_op_test({"BatchDet",
                 {},
                 {well_conditioned(2, n, rng)},
                 per_matrix([](const M& a, int64_t n) { return M{det_cofactor(a, n)}; }, true)});
}

TEST(BatchLogdet, Small) {
  std::mt19937 rng(2);
  for (int64_t n : {1, 2, 3})
    run_op_test(
        {"BatchLogdet",
         {},
         {well_conditioned(2, n, rng)},
         per_matrix([](const M& a, int64_t n) { return M{std::log(std::fabs(det_cofactor(a, n)))}; }, true)});
}

TEST(BatchInv, Small) {
  std::mt19937 rng(3);
  for (int64_t n : {1, 2, 3})
    run_op_test({"BatchInv", {}, {well_conditioned(2, n, rng)}, per_matrix(inverse_adjugate, false)});
}

TEST(BatchCholesky, LowerAndUpper) {
  for (bool upper : {false, true}) {
    std::mt19937 rng(4);
    // The reference factors the symmetric part, so the numeric gradient is the symmetric one upstream
    // returns.
    auto chol = [upper](const M& x, int64_t n) {
      M a(x.size()), l(x.size(), 0.0);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) a[size_t(i * n + j)] = 0.5 * (x[size_t(i * n + j)] + x[size_t(j * n + i)]);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j <= i; ++j) {
          double s = a[size_t(i * n + j)];
          for (int64_t k = 0; k < j; ++k) s -= l[size_t(i * n + k)] * l[size_t(j * n + k)];
          l[size_t(i * n + j)] = i == j ? std::sqrt(s) : s / l[size_t(j * n + j)];
        }
      if (!upper) return l;
      M u(l.size());
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) u[size_t(i * n + j)] = l[size_t(j * n + i)];
      return u;
    };
    run_op_test({"BatchCholesky", {{"upper", upper}}, {spd(2, 3, rng)}, per_matrix(chol, false)});
  }
}
