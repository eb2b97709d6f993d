// Parameter initializers: exact Constant/Range/unknown, fan formulas, statistics, seeded determinism.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "nn/ir/initializer.hpp"

namespace nn {
namespace {

std::vector<float> init(const std::string& type, double m, const Shape& shape, uint32_t seed = 0) {
  RandomEngine rng(seed);
  std::vector<float> out(size_t(shape_size(shape)), 123.0f);
  initialize_parameter(type, m, shape, out.data(), rng);
  return out;
}

struct Moments {
  double mean, std, min, max;
};

Moments moments(const std::vector<float>& v) {
  double sum = 0, sq = 0, lo = v[0], hi = v[0];
  for (float x : v) {
    sum += x;
    sq += double(x) * x;
    lo = std::min(lo, double(x));
    hi = std::max(hi, double(x));
  }
  const double mean = sum / double(v.size());
  return {mean, std::sqrt(sq / double(v.size()) - mean * mean), lo, hi};
}

TEST(Initializer, ConstantRangeAndUnknownAreExact) {
  for (float x : init("Constant", 0.25, {3, 4})) EXPECT_EQ(x, 0.25f);
  EXPECT_EQ(init("Range", 0.5, {2, 3}), (std::vector<float>{0.0f, 0.5f, 1.0f, 0.0f, 0.5f, 1.0f}));
  EXPECT_EQ(init("Range", 2.0, {4}), (std::vector<float>{0.0f, 2.0f, 4.0f, 6.0f}));
  for (const std::string type : {"", "None", "SomethingElse"}) {
    for (float x : init(type, 3.0, {5})) EXPECT_EQ(x, 0.0f) << type;
    EXPECT_FALSE(is_known_initializer(type));
  }
  EXPECT_TRUE(is_known_initializer("UniformCLConvGlorot"));
}

TEST(Initializer, FanFormulas) {
  // Affine W (I, O...) = (20, 5, 6): I = 20, O = 30.
  EXPECT_DOUBLE_EQ(initializer_scale("NormalAffineHe", {20, 5, 6}), std::sqrt(2.0 / 20));
  EXPECT_DOUBLE_EQ(initializer_scale("NormalAffineHeForward", {20, 5, 6}), std::sqrt(2.0 / 20));
  EXPECT_DOUBLE_EQ(initializer_scale("NormalAffineHeBackward", {20, 5, 6}), std::sqrt(2.0 / 30));
  EXPECT_DOUBLE_EQ(initializer_scale("NormalAffineGlorot", {20, 5, 6}), std::sqrt(2.0 / 50));
  EXPECT_DOUBLE_EQ(initializer_scale("UniformAffineGlorot", {20, 5, 6}), std::sqrt(6.0 / 50));
  // Convolution W (O, I, kh, kw) = (8, 4, 3, 5): I = 4, O = 8, k = 15.
  EXPECT_DOUBLE_EQ(initializer_scale("NormalConvolutionHe", {8, 4, 3, 5}), std::sqrt(2.0 / (15 * 4)));
  EXPECT_DOUBLE_EQ(initializer_scale("NormalConvolutionHeForward", {8, 4, 3, 5}), std::sqrt(2.0 / (15 * 4)));
  EXPECT_DOUBLE_EQ(initializer_scale("NormalConvolutionHeBackward", {8, 4, 3, 5}), std::sqrt(2.0 / (15 * 8)));
  EXPECT_DOUBLE_EQ(initializer_scale("NormalConvolutionGlorot", {8, 4, 3, 5}), std::sqrt(2.0 / (15 * 12)));
  EXPECT_DOUBLE_EQ(initializer_scale("UniformConvolutionGlorot", {8, 4, 3, 5}), std::sqrt(6.0 / (15 * 12)));
  // Channel-last convolution W (O, kh, kw, I) = (8, 3, 5, 4).
  EXPECT_DOUBLE_EQ(initializer_scale("NormalCLConvHe", {8, 3, 5, 4}), std::sqrt(2.0 / (15 * 4)));
  EXPECT_DOUBLE_EQ(initializer_scale("NormalCLConvHeForward", {8, 3, 5, 4}), std::sqrt(2.0 / (15 * 4)));
  EXPECT_DOUBLE_EQ(initializer_scale("NormalCLConvHeBackward", {8, 3, 5, 4}), std::sqrt(2.0 / (15 * 8)));
  EXPECT_DOUBLE_EQ(initializer_scale("NormalCLConvGlorot", {8, 3, 5, 4}), std::sqrt(2.0 / (15 * 12)));
  EXPECT_DOUBLE_EQ(initializer_scale("UniformCLConvGlorot", {8, 3, 5, 4}), std::sqrt(6.0 / (15 * 12)));
  EXPECT_THROW(initializer_scale("NormalConvolutionHe", {8, 4}), Error);
}

TEST(Initializer, StatisticsOfLargeTensors) {
  // About 60k samples: the sample std is within 1.5% of sigma with overwhelming probability.
  const double m = 1.5;
  struct Case {
    std::string type;
    Shape shape;
  };
  const std::vector<Case> cases = {
      {"Normal", {250, 240}},
      {"Uniform", {250, 240}},
      {"NormalAffineHe", {250, 240}},
      {"NormalAffineHeBackward", {250, 240}},
      {"NormalAffineGlorot", {250, 240}},
      {"UniformAffineGlorot", {250, 240}},
      {"NormalConvolutionHeForward", {64, 32, 5, 6}},
      {"NormalConvolutionHeBackward", {64, 32, 5, 6}},
      {"NormalConvolutionGlorot", {64, 32, 5, 6}},
      {"UniformConvolutionGlorot", {64, 32, 5, 6}},
      {"NormalCLConvHe", {64, 5, 6, 32}},
      {"NormalCLConvHeBackward", {64, 5, 6, 32}},
      {"NormalCLConvGlorot", {64, 5, 6, 32}},
      {"UniformCLConvGlorot", {64, 5, 6, 32}},
  };
  for (const auto& c : cases) {
    const auto v = init(c.type, m, c.shape, 7);
    const Moments s = moments(v);
    const double scale = initializer_scale(c.type, c.shape) * m;
    const bool uniform = c.type.rfind("Uniform", 0) == 0;
    const double expected_std = uniform ? scale / std::sqrt(3.0) : scale;
    EXPECT_NEAR(s.std, expected_std, 0.015 * expected_std) << c.type;
    EXPECT_NEAR(s.mean, 0.0, 0.02 * expected_std) << c.type;
    if (uniform) {
      EXPECT_GE(s.min, -scale * (1 + 1e-6)) << c.type;
      EXPECT_LE(s.max, scale * (1 + 1e-6)) << c.type;
      EXPECT_LT(s.min, -0.99 * scale) << c.type;
      EXPECT_GT(s.max, 0.99 * scale) << c.type;
    }
  }
}

TEST(Initializer, SameSeedSameValues) {
  for (const std::string type : {"Normal", "Uniform", "NormalConvolutionGlorot", "UniformAffineGlorot"}) {
    const Shape shape{4, 3, 3, 3};
    EXPECT_EQ(init(type, 1.0, shape, 42), init(type, 1.0, shape, 42)) << type;
    EXPECT_NE(init(type, 1.0, shape, 42), init(type, 1.0, shape, 43)) << type;
  }
  // Consecutive parameters draw from one stream.
  RandomEngine rng(5);
  std::vector<float> a(6), b(6);
  initialize_parameter("Normal", 1.0, {6}, a.data(), rng);
  initialize_parameter("Normal", 1.0, {6}, b.data(), rng);
  EXPECT_NE(a, b);
}

TEST(Initializer, MatchesNumpyLegacyRandomState) {
  // numpy.random.RandomState(0): randn(3) and uniform(-1, 1, 2).
  EXPECT_EQ(init("Normal", 1.0, {3}, 0),
            (std::vector<float>{float(1.764052345967664), float(0.4001572083672233), float(0.9787379841057392)}));
  EXPECT_EQ(init("Uniform", 1.0, {2}, 0),
            (std::vector<float>{float(-1 + 2 * 0.5488135039273248), float(-1 + 2 * 0.7151893663724195)}));
}

TEST(Initializer, IntoNdArray) {
  NdArray a({2, 3});
  RandomEngine rng(1);
  initialize_parameter("Range", 1.0, a, rng);
  EXPECT_EQ(a.to_vector(), (std::vector<float>{0, 1, 2, 0, 1, 2}));
}

}  // namespace
}  // namespace nn
