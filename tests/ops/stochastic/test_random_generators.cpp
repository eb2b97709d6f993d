// Rand, Randint, Randn, RandBinomial, RandBeta, RandGamma: shapes, ranges, moments, seed determinism.
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"
#include "run_forward.hpp"

using namespace nn::test;
using Ints = std::vector<int64_t>;

namespace {

struct Moments {
  double mean = 0, var = 0, min = 1e300, max = -1e300;
};
Moments moments(const std::vector<float>& v) {
  Moments m;
  for (float x : v) {
    m.mean += x;
    m.min = std::min(m.min, double(x));
    m.max = std::max(m.max, double(x));
  }
  m.mean /= double(v.size());
  for (float x : v) m.var += (x - m.mean) * (x - m.mean);
  m.var /= double(v.size());
  return m;
}

// Draws n samples with a seed, checks determinism, a different seed differing, and returns them.
std::vector<float> samples(const std::string& type, nn::Attrs attrs, int64_t n = 20000) {
  attrs.set("shape", Ints{n / 100, 100});
  attrs.set("seed", int64_t(123));
  auto a = forward_once(type, attrs, {});
  EXPECT_EQ(a.shapes[0], (nn::Shape{n / 100, 100}));
  EXPECT_EQ(a.outputs[0], forward_once(type, attrs, {}).outputs[0]) << type << ": same seed, same samples";
  attrs.set("seed", int64_t(124));
  EXPECT_NE(a.outputs[0], forward_once(type, attrs, {}).outputs[0]) << type << ": other seed, other samples";
  return a.outputs[0];
}

}  // namespace

TEST(Rand, UniformRangeAndMoments) {
  auto m = moments(samples("Rand", {{"low", -1.0}, {"high", 3.0}}));
  EXPECT_GE(m.min, -1.0);
  EXPECT_LT(m.max, 3.0);
  EXPECT_NEAR(m.mean, 1.0, 0.05);
  EXPECT_NEAR(m.var, 16.0 / 12.0, 0.05);
  // Default shape () is a scalar.
  EXPECT_EQ(forward_once("Rand", {}, {}).shapes[0], nn::Shape{});
  EXPECT_THROW(forward_once("Rand", {{"low", 1.0}, {"high", 1.0}}, {}), nn::Error);
}

TEST(Randint, IntegersInRange) {
  auto v = samples("Randint", {{"low", int64_t(-2)}, {"high", int64_t(3)}});
  for (float x : v) {
    EXPECT_EQ(x, std::round(x));
    EXPECT_GE(x, -2);
    EXPECT_LE(x, 2);
  }
  auto m = moments(v);
  EXPECT_NEAR(m.mean, 0.0, 0.05);
  EXPECT_NEAR(m.var, 2.0, 0.1);  // discrete uniform on 5 values: (5^2 - 1) / 12
}

TEST(Randn, NormalMoments) {
  auto m = moments(samples("Randn", {{"mu", 2.0}, {"sigma", 0.5}}));
  EXPECT_NEAR(m.mean, 2.0, 0.02);
  EXPECT_NEAR(m.var, 0.25, 0.02);
}

TEST(RandBinomial, BinomialMoments) {
  auto v = samples("RandBinomial", {{"n", int64_t(10)}, {"p", 0.3}});
  for (float x : v) EXPECT_TRUE(x >= 0 && x <= 10 && x == std::round(x));
  auto m = moments(v);
  EXPECT_NEAR(m.mean, 3.0, 0.05);
  EXPECT_NEAR(m.var, 2.1, 0.1);
}

TEST(RandBeta, BetaMoments) {
  const double a = 2.0, b = 3.0;
  auto m = moments(samples("RandBeta", {{"alpha", a}, {"beta", b}}));
  EXPECT_GE(m.min, 0.0);
  EXPECT_LE(m.max, 1.0);
  EXPECT_NEAR(m.mean, a / (a + b), 0.01);
  EXPECT_NEAR(m.var, a * b / ((a + b) * (a + b) * (a + b + 1)), 0.005);
}

TEST(RandGamma, GammaMoments) {
  const double k = 2.0, theta = 1.5;
  auto m = moments(samples("RandGamma", {{"k", k}, {"theta", theta}}));
  EXPECT_GE(m.min, 0.0);
  EXPECT_NEAR(m.mean, k * theta, 0.06);
  EXPECT_NEAR(m.var, k * theta * theta, 0.25);
}
