// nn::fast exp / sigmoid / tanh / erf against the double-precision library functions, in ulps, over their range.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "nn/ops/detail/fast_math.hpp"

namespace {

// Distance in representable floats (both signs on one integer line; +0 and -0 coincide).
int64_t ulp_distance(float a, float b) {
  auto key = [](float v) {
    const int32_t bits = std::bit_cast<int32_t>(v);
    return bits < 0 ? -int64_t(bits & 0x7fffffff) : int64_t(bits);
  };
  return std::llabs(key(a) - key(b));
}

// Every `step`-th float in [lo, hi] (by bit pattern, so each binade is sampled alike).
std::vector<float> sample_floats(float lo, float hi, int64_t step) {
  auto key = [](float v) {
    const int32_t bits = std::bit_cast<int32_t>(v);
    return bits < 0 ? -int64_t(bits & 0x7fffffff) : int64_t(bits);
  };
  auto from_key = [](int64_t k) {
    return k < 0 ? std::bit_cast<float>(uint32_t(-k) | 0x80000000u) : std::bit_cast<float>(uint32_t(k));
  };
  std::vector<float> xs;
  for (int64_t k = key(lo); k <= key(hi); k += step) xs.push_back(from_key(k));
  return xs;
}

// The worst ulp error of f against the double reference over xs (through a loop gcc can vectorize).
template <class F, class Ref>
int64_t worst_ulps(const std::vector<float>& xs, F f, Ref ref, float* worst_x) {
  std::vector<float> ys(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) ys[i] = f(xs[i]);
  int64_t worst = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const int64_t d = ulp_distance(ys[i], float(ref(double(xs[i]))));
    if (d > worst) {
      worst = d;
      *worst_x = xs[i];
    }
  }
  return worst;
}

const std::vector<float>& samples() {
  static const std::vector<float> xs = [] {
    auto v = sample_floats(-110.f, 95.f, 4099);
    for (float x : {0.f, -0.f, 1e-30f, -1e-30f, 88.72f, 88.7228f, -87.33f, -103.9f}) v.push_back(x);
    return v;
  }();
  return xs;
}

TEST(FastMath, ExpWithinTwoUlps) {
  float at = 0;
  const int64_t worst = worst_ulps(
      samples(), [](float x) { return nn::fast::exp(x); }, [](double x) { return std::exp(x); }, &at);
  EXPECT_LE(worst, 2) << "at x = " << at;
}

TEST(FastMath, ExpSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(nn::fast::exp(0.f), 1.f);
  EXPECT_EQ(nn::fast::exp(inf), inf);
  EXPECT_EQ(nn::fast::exp(100.f), inf);
  EXPECT_EQ(nn::fast::exp(-inf), 0.f);
  EXPECT_EQ(nn::fast::exp(-200.f), 0.f);
  EXPECT_GT(nn::fast::exp(-100.f), 0.f);  // subnormal, as std::exp
  EXPECT_TRUE(std::isnan(nn::fast::exp(std::numeric_limits<float>::quiet_NaN())));
}

TEST(FastMath, ExpNonpositiveWithinTwoUlpsAndZeroBelowItsRange) {
  std::vector<float> xs = sample_floats(-87.29f, 0.f, 4099);
  for (float x : {0.f, -0.f, -1e-30f, -87.29f}) xs.push_back(x);
  float at = 0;
  const int64_t worst = worst_ulps(
      xs, [](float x) { return nn::fast::exp_nonpositive(x); }, [](double x) { return std::exp(x); }, &at);
  EXPECT_LE(worst, 2) << "at x = " << at;
  EXPECT_EQ(nn::fast::exp_nonpositive(-87.4f), 0.f);
  EXPECT_EQ(nn::fast::exp_nonpositive(-std::numeric_limits<float>::infinity()), 0.f);
  EXPECT_TRUE(std::isnan(nn::fast::exp_nonpositive(std::numeric_limits<float>::quiet_NaN())));
}

TEST(FastMath, SigmoidWithinFourUlps) {
  // Results below FLT_MIN (x < -87.3) are flushed to 0 (checked below); the normal ones within 4 ulps.
  std::vector<float> normal_results;
  for (float x : samples())
    if (!(x < -87.3f)) normal_results.push_back(x);
  float at = 0;
  const int64_t worst = worst_ulps(
      normal_results, [](float x) { return nn::fast::sigmoid(x); },
      [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, &at);
  EXPECT_LE(worst, 4) << "at x = " << at;
  EXPECT_EQ(nn::fast::sigmoid(-90.f), 0.f);
  EXPECT_TRUE(std::isnan(nn::fast::sigmoid(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(nn::fast::sigmoid(std::numeric_limits<float>::infinity()), 1.f);
  EXPECT_EQ(nn::fast::sigmoid(-std::numeric_limits<float>::infinity()), 0.f);
}

TEST(FastMath, TanhWithinTwoUlps) {
  float at = 0;
  const int64_t worst = worst_ulps(
      samples(), [](float x) { return nn::fast::tanh(x); }, [](double x) { return std::tanh(x); }, &at);
  EXPECT_LE(worst, 2) << "at x = " << at;
  EXPECT_EQ(nn::fast::tanh(std::numeric_limits<float>::infinity()), 1.f);
  EXPECT_EQ(nn::fast::tanh(-std::numeric_limits<float>::infinity()), -1.f);
  EXPECT_TRUE(std::isnan(nn::fast::tanh(std::numeric_limits<float>::quiet_NaN())));
}

TEST(FastMath, ErfWithinARelativeMillionth) {
  double worst = 0;  // relative error, or for subnormal results (which hold fewer digits) ulps times 1e-6
  float at = 0;
  for (float x : samples()) {
    const double want = std::erf(double(x));
    const float got = nn::fast::erf(x);
    const double err = std::fabs(want) < std::numeric_limits<float>::min()
                           ? 1e-6 * double(ulp_distance(got, float(want)))
                           : std::fabs(got - want) / std::fabs(want);
    if (err > worst) worst = err, at = x;
  }
  EXPECT_LE(worst, 1e-6) << "at x = " << at;
  EXPECT_EQ(nn::fast::erf(std::numeric_limits<float>::infinity()), 1.f);
  EXPECT_EQ(nn::fast::erf(-std::numeric_limits<float>::infinity()), -1.f);
  EXPECT_EQ(nn::fast::erf(30.f), 1.f);
  EXPECT_TRUE(std::isnan(nn::fast::erf(std::numeric_limits<float>::quiet_NaN())));
}

}  // namespace
