// sigmoid_array / swish_array / exp_shifted_array (AVX-512 where the CPU has it) against double-precision
// references, over the float range, at every tail length, in place, and at the edges (infinities, NaN).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "ops/detail/vector_math.hpp"

namespace {

double sigmoid_ref(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Every 0.01 over [-110, 110] (both saturations and beyond the clamp at +-100).
std::vector<float> samples() {
  std::vector<float> xs;
  for (int i = -11000; i <= 11000; ++i) xs.push_back(float(i) * 0.01f);
  for (float x : {0.f, -0.f, 1e-30f, -1e-30f, 87.5f, -87.5f, 1e20f, -1e20f}) xs.push_back(x);
  return xs;
}

// The worst error of y against ref(x) relative to max(|ref|, 1e-30) (results that flush to 0 below that
// compare absolutely).
template <class Ref>
double worst_error(const std::vector<float>& xs, const std::vector<float>& ys, Ref ref) {
  double worst = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double want = ref(double(xs[i]));
    worst = std::max(worst, std::fabs(double(ys[i]) - want) / std::max(std::fabs(want), 1e-30));
  }
  return worst;
}

TEST(VectorMath, SigmoidAndSwishMatchDoubleReferences) {
  const std::vector<float> xs = samples();
  std::vector<float> ys(xs.size());
  nn::ops::sigmoid_array(xs.data(), ys.data(), int64_t(xs.size()));
  EXPECT_LT(worst_error(xs, ys, sigmoid_ref), 3e-7);
  nn::ops::swish_array(xs.data(), ys.data(), int64_t(xs.size()));
  EXPECT_LT(worst_error(xs, ys, [](double x) { return x * sigmoid_ref(x); }), 3e-7);
}

TEST(VectorMath, EveryTailLengthAndInPlace) {
  for (int64_t n = 0; n <= 40; ++n) {
    std::vector<float> x(size_t(n) + 1, 7.f), y(size_t(n) + 1, -1.f);  // one sentinel past the end
    for (int64_t i = 0; i < n; ++i) x[size_t(i)] = float(i) * 0.37f - 6.f;
    nn::ops::swish_array(x.data(), y.data(), n);
    for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(y[size_t(i)], x[size_t(i)] * sigmoid_ref(x[size_t(i)]), 1e-6) << n;
    EXPECT_EQ(y[size_t(n)], -1.f) << "wrote past " << n;
    nn::ops::sigmoid_array(x.data(), x.data(), n);  // in place
    for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(x[size_t(i)], sigmoid_ref(float(i) * 0.37f - 6.f), 1e-7) << n;
    EXPECT_EQ(x[size_t(n)], 7.f);
  }
}

TEST(VectorMath, InfinitiesAndNaN) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> xs{inf, -inf, nan, 0.f};
  std::vector<float> s(xs.size()), w(xs.size());
  nn::ops::sigmoid_array(xs.data(), s.data(), int64_t(xs.size()));
  nn::ops::swish_array(xs.data(), w.data(), int64_t(xs.size()));
  EXPECT_EQ(s[0], 1.f);
  EXPECT_EQ(s[1], 0.f);
  EXPECT_TRUE(std::isnan(s[2]));
  EXPECT_EQ(s[3], 0.5f);
  EXPECT_EQ(w[0], inf);
  EXPECT_TRUE(std::isnan(w[2]));
  EXPECT_EQ(w[3], 0.f);
}

}  // namespace

namespace {

// exp_shifted_array over x against double precision: the max, each exp(x - max) and their sum.
void expect_exp_shifted(const std::vector<float>& x) {
  std::vector<float> e(x.size());
  const auto [m, sum] = nn::ops::exp_shifted_array(x.data(), e.data(), int64_t(x.size()));
  double want_max = -std::numeric_limits<double>::infinity(), want_sum = 0;
  for (float v : x) want_max = std::max(want_max, double(v));
  EXPECT_EQ(double(m), want_max);
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = std::exp(double(x[i]) - want_max);
    want_sum += want;
    EXPECT_LE(std::fabs(double(e[i]) - want), 2e-7 * std::max(want, 1e-30) + 1e-38) << "x " << x[i];
  }
  EXPECT_LE(std::fabs(double(sum) - want_sum), 1e-6 * want_sum);
}

}  // namespace

TEST(VectorMath, ExpShiftedLinesAtEveryTailLength) {
  for (int64_t n = 1; n <= 70; ++n) {
    SCOPED_TRACE(n);
    std::vector<float> x(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) x[size_t(i)] = float((i * 37) % 23) * 0.7f - 9.f - float(n);
    expect_exp_shifted(x);
  }
  // Attention masks write -inf and large negative scores: their numerators are 0 (or below 4e-44).
  const float inf = std::numeric_limits<float>::infinity();
  expect_exp_shifted({0.5f, -inf, 3.f, -1e9f, -200.f, 2.f, -inf, 1.f, -90.f, -87.f, 0.f, -1.f, -2.f, -3.f, -4.f,
                      -5.f, -6.f, -7.f});
  std::vector<float> x(40, 1.f), e(40);
  x[33] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(nn::ops::exp_shifted_array(x.data(), e.data(), 40).second));
  // In place.
  std::vector<float> y = {1.f, 2.f, 3.f};
  nn::ops::exp_shifted_array(y.data(), y.data(), 3);
  EXPECT_FLOAT_EQ(y[2], 1.f);
  EXPECT_NEAR(y[0], std::exp(-2.0), 1e-7);
}
