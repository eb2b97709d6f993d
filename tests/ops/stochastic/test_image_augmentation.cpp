// ImageAugmentation: identity, crop/pad, flips, brightness/contrast math, rotation, determinism, shapes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "op_tester.hpp"
#include "run_forward.hpp"

using namespace nn::test;
using Ints = std::vector<int64_t>;

namespace {

// Reference in double that replays upstream's draw sequence on its own mt19937 (seed required; no noise).
std::vector<RefArray> augment_reference(const RefInputs& in, const nn::Attrs& a) {
  const RefArray& x = in[0];
  std::mt19937 g(uint32_t(a.get_int("seed", 0)));
  auto unit = [&] { return double(g() % 1001) * 0.001; };
  Ints shape = a.get_ints("shape", {});
  if (shape.empty()) shape = x.shape;
  nn::Shape ys = x.shape;
  for (size_t i = 0; i < shape.size(); ++i) ys[ys.size() - shape.size() + i] = shape[i];
  const Ints pad = a.get_ints("pad", {0, 0});
  const double min_s = a.get_float("min_scale", 1), max_s = a.get_float("max_scale", 1);
  const double ang = a.get_float("angle", 0), aspect = a.get_float("aspect_ratio", 1);
  const double dist = a.get_float("distortion", 0), bright = a.get_float("brightness", 0);
  const double contrast = a.get_float("contrast", 1), center = a.get_float("contrast_center", 0);
  const bool b_each = a.get_bool("brightness_each", false), c_each = a.get_bool("contrast_each", false);
  const int64_t wi = x.shape.back(), hi = x.shape[x.shape.size() - 2];
  const int64_t wo = ys.back(), ho = ys[ys.size() - 2];
  const int64_t ch = x.shape.size() >= 3 ? x.shape[x.shape.size() - 3] : 1;
  const int64_t images = ref_size(x.shape) / (wi * hi * ch);
  RefArray y{ys, std::vector<double>(size_t(ref_size(ys)))};
  for (int64_t im = 0; im < images; ++im) {
    const double scale = min_s * std::exp(unit() * std::log(max_s / min_s));
    const double sx = std::exp(-std::log(aspect) * 0.5 + unit() * std::log(aspect)), sy = 1 / sx;
    const double angle = -ang + unit() * ang * 2;
    const double cx = (wo - 1) * 0.5, cy = (ho - 1) * 0.5;
    const double cxs = unit() * ((wi + 2 * pad[1]) * scale * sx - wo) + cx;
    const double cys = unit() * ((hi + 2 * pad[0]) * scale * sy - ho) + cy;
    const bool flr = a.get_bool("flip_lr", false) && g() % 2, fud = a.get_bool("flip_ud", false) && g() % 2;
    const double gb = unit() * bright * 2 - bright;
    const double gc = std::exp(unit() * std::log(contrast) * 2) / contrast;
    std::vector<double> cb(static_cast<size_t>(ch)), cc(static_cast<size_t>(ch));
    for (int64_t c = 0; c < ch; ++c) {
      cb[c] = b_each ? unit() * bright * 2 - bright : gb;
      cc[c] = c_each ? std::exp(unit() * std::log(contrast) * 2) / contrast : gc;
    }
    const double d = std::exp(unit() * 2 * dist - dist) - 1;
    unit();  // noise level (unused: no noise here)
    for (int64_t oy = 0; oy < ho; ++oy) {
      for (int64_t ox = 0; ox < wo; ++ox) {
        // Output pixel -> position in the scaled, padded, rotated, flipped input frame.
        double px = ox, py = oy;
        if (d != 0) {
          double dx = (ox - wo * 0.5) / (wo * 0.5), dy = (oy - ho * 0.5) / (ho * 0.5);
          const double r2 = dx * dx + dy * dy;
          px = (dx + dx * d * r2) * wo * 0.5 / (1 + d) + wo * 0.5;
          py = (dy + dy * d * r2) * ho * 0.5 / (1 + d) + ho * 0.5;
        }
        // Rotate about the output centre with the inverse scales, then mirror (as upstream's pixel map).
        const double isx = 1 / (scale * sx), isy = 1 / (scale * sy);
        const double rx = std::cos(angle) * (px - cx) * isx - std::sin(angle) * (py - cy) * isy;
        const double ry = std::sin(angle) * (px - cx) * isx + std::cos(angle) * (py - cy) * isy;
        double xi = cxs * isx - pad[1] + (flr ? -rx : rx);
        double yi = cys * isy - pad[0] + (fud ? -ry : ry);
        xi = std::min(std::max(xi, 0.0), double(wi - 1));
        yi = std::min(std::max(yi, 0.0), double(hi - 1));
        const int64_t x0 = int64_t(xi), y0 = int64_t(yi);
        const int64_t x1 = std::min(x0 + 1, wi - 1), y1 = std::min(y0 + 1, hi - 1);
        const double fx = xi - x0, fy = yi - y0;
        for (int64_t c = 0; c < ch; ++c) {
          const double* p = x.data.data() + (im * ch + c) * hi * wi;
          const double val = p[y0 * wi + x0] * (1 - fx) * (1 - fy) + p[y0 * wi + x1] * fx * (1 - fy) +
                             p[y1 * wi + x0] * (1 - fx) * fy + p[y1 * wi + x1] * fx * fy;
          y.data[size_t(((im * ch + c) * ho + oy) * wo + ox)] = (val + cb[c] - center) * cc[c] + center;
        }
      }
    }
  }
  return {y};
}

OpTestCase augment_case(const nn::Attrs& attrs, const nn::Shape& shape, uint32_t data_seed) {
  std::mt19937 rng(data_seed);
  OpTestCase tc{"ImageAugmentation", attrs, {random_input(shape, rng)}, augment_reference};
  tc.check_backward = false;  // forward only, as upstream
  return tc;
}

}  // namespace

TEST(ImageAugmentation, DefaultsAreIdentity) {
  std::mt19937 rng(1);
  auto x = random_input({2, 3, 5, 7}, rng);
  auto r = forward_once("ImageAugmentation", {}, {x});
  ASSERT_EQ(r.shapes[0], x.shape);
  for (size_t i = 0; i < x.data.size(); ++i) EXPECT_EQ(r.outputs[0][i], float(x.data[i])) << i;
  run_op_test(augment_case({{"seed", int64_t(3)}}, {2, 3, 5, 7}, 2));
}

TEST(ImageAugmentation, CropAndPadSampleAShiftedWindow) {
  // On a linear ramp, bilinear sampling of a shifted window is again the ramp, shifted inside range.
  RefArray ramp{{1, 1, 6, 8}, {}};
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 8; ++c) ramp.data.push_back(2.0 * r + 3.0 * c);
  for (int seed = 0; seed < 5; ++seed) {
    auto out = forward_once("ImageAugmentation", {{"shape", Ints{4, 4}}, {"seed", int64_t(seed)}}, {ramp});
    ASSERT_EQ(out.shapes[0], (nn::Shape{1, 1, 4, 4}));
    const auto& y = out.outputs[0];
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(y[r * 4 + c + 1] - y[r * 4 + c], 3.0, 1e-4);
    for (int r = 0; r < 3; ++r) EXPECT_NEAR(y[(r + 1) * 4] - y[r * 4], 2.0, 1e-4);
    EXPECT_GE(y[0], -1e-5);
    EXPECT_LE(y[0], 2.0 * 2 + 3.0 * 4 + 1e-4);
  }
  run_op_test(augment_case({{"shape", Ints{3, 4}}, {"seed", int64_t(5)}}, {2, 2, 6, 7}, 3));
  run_op_test(augment_case({{"pad", Ints{2, 1}}, {"seed", int64_t(6)}}, {1, 2, 4, 5}, 4));
}

TEST(ImageAugmentation, FlipsGiveTheMirroredImage) {
  std::mt19937 rng(5);
  auto x = random_input({16, 1, 3, 4}, rng);
  auto y = forward_once("ImageAugmentation", {{"flip_lr", true}, {"seed", int64_t(8)}}, {x}).outputs[0];
  int flipped = 0;
  for (int im = 0; im < 16; ++im) {
    bool same = true, mirrored = true;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) {
        const float v = y[im * 12 + r * 4 + c];
        same &= v == float(x.data[im * 12 + r * 4 + c]);
        mirrored &= std::fabs(v - x.data[im * 12 + r * 4 + 3 - c]) < 1e-6;
      }
    EXPECT_TRUE(same || mirrored) << "image " << im;
    flipped += !same;
  }
  EXPECT_GT(flipped, 0);
  EXPECT_LT(flipped, 16);
  run_op_test(augment_case({{"flip_lr", true}, {"flip_ud", true}, {"seed", int64_t(9)}}, {6, 2, 3, 4}, 6));
}

TEST(ImageAugmentation, BrightnessAndContrastMath) {
  std::mt19937 rng(7);
  auto x = random_input({8, 3, 2, 3}, rng);
  // Global brightness: y - x is one constant per image within [-b, b].
  auto y = forward_once("ImageAugmentation", {{"brightness", 0.4}, {"seed", int64_t(1)}}, {x}).outputs[0];
  for (int im = 0; im < 8; ++im) {
    const double shift = y[im * 18] - x.data[im * 18];
    EXPECT_LE(std::fabs(shift), 0.4 + 1e-6);
    for (int i = 0; i < 18; ++i) EXPECT_NEAR(y[im * 18 + i] - x.data[im * 18 + i], shift, 1e-5);
  }
  // Contrast around a centre: (y - c) / (x - c) is one ratio per image within [1/contrast, contrast].
  y = forward_once("ImageAugmentation", {{"contrast", 2.0}, {"contrast_center", 0.25}, {"seed", int64_t(2)}}, {x})
          .outputs[0];
  for (int im = 0; im < 8; ++im) {
    const double ratio = (y[im * 18] - 0.25) / (x.data[im * 18] - 0.25);
    EXPECT_GE(ratio, 0.5 - 1e-5);
    EXPECT_LE(ratio, 2.0 + 1e-5);
    for (int i = 0; i < 18; ++i) EXPECT_NEAR(y[im * 18 + i] - 0.25, ratio * (x.data[im * 18 + i] - 0.25), 1e-5);
  }
  run_op_test(augment_case(
      {{"brightness", 0.3}, {"contrast", 1.5}, {"contrast_center", 0.1}, {"seed", int64_t(4)}}, {3, 3, 2, 3}, 8));
  run_op_test(augment_case({{"brightness", 0.3},
                            {"brightness_each", true},
                            {"contrast", 1.5},
                            {"contrast_each", true},
                            {"seed", int64_t(5)}},
                           {3, 3, 2, 3}, 9));
}

TEST(ImageAugmentation, ScaleRotationAspect) {
  // Same draws as upstream, sampled in double; bilinear sampling is continuous, so float rounding of the
  // coordinates moves values only slightly (2e-4 absorbs it).
  auto tc = augment_case({{"min_scale", 0.8},
                          {"max_scale", 1.3},
                          {"angle", 0.5},
                          {"aspect_ratio", 1.4},
                          {"shape", Ints{5, 6}},
                          {"seed", int64_t(11)}},
                         {3, 2, 7, 8}, 10);
  tc.atol = 2e-4;
  run_op_test(tc);
}

TEST(ImageAugmentation, DistortionKeepsCentreAndIsDeterministic) {
  std::mt19937 rng(12);
  auto x = random_input({2, 1, 9, 9}, rng);
  const nn::Attrs attrs{{"distortion", 0.3}, {"seed", int64_t(3)}};
  auto a = forward_once("ImageAugmentation", attrs, {x}).outputs[0];
  auto b = forward_once("ImageAugmentation", attrs, {x}).outputs[0];
  EXPECT_EQ(a, b);
  bool differs = false;
  for (size_t i = 0; i < a.size(); ++i) differs |= std::fabs(a[i] - x.data[i]) > 1e-4;
  EXPECT_TRUE(differs);
}

TEST(ImageAugmentation, SeedDeterminismAndNoise) {
  std::mt19937 rng(13);
  auto x = random_input({4, 2, 6, 6}, rng);
  const nn::Attrs attrs{{"noise", 0.2}, {"angle", 0.3}, {"flip_lr", true}, {"seed", int64_t(7)}};
  auto a = forward_once("ImageAugmentation", attrs, {x}).outputs[0];
  auto b = forward_once("ImageAugmentation", attrs, {x}).outputs[0];
  EXPECT_EQ(a, b);
  ForwardRunner runner("ImageAugmentation", attrs, {x});
  auto first = runner.run().outputs[0], second = runner.run().outputs[0];
  EXPECT_EQ(first, a);
  EXPECT_NE(first, second);  // the stream advances between calls
  // Noise alone: zero-mean perturbation of at most noise * N(0, 1) size.
  auto y = forward_once("ImageAugmentation", {{"noise", 0.2}, {"seed", int64_t(1)}}, {x}).outputs[0];
  double sum = 0, sq = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    sum += y[i] - x.data[i];
    sq += (y[i] - x.data[i]) * (y[i] - x.data[i]);
  }
  EXPECT_LT(std::fabs(sum / y.size()), 0.05);
  EXPECT_GT(sq, 0.0);
  EXPECT_LT(std::sqrt(sq / y.size()), 0.25);
}

TEST(ImageAugmentation, OutputShapeAndErrors) {
  std::mt19937 rng(14);
  auto x = random_input({2, 3, 6, 8}, rng);
  EXPECT_EQ(forward_once("ImageAugmentation", {{"shape", Ints{3, 5}}}, {x}).shapes[0], (nn::Shape{2, 3, 3, 5}));
  EXPECT_EQ(forward_once("ImageAugmentation", {{"shape", Ints{3, 4, 4}}}, {x}).shapes[0], (nn::Shape{2, 3, 4, 4}));
  EXPECT_EQ(forward_once("ImageAugmentation", {}, {random_input({5, 6}, rng)}).shapes[0], (nn::Shape{5, 6}));
  EXPECT_THROW(forward_once("ImageAugmentation", {{"shape", Ints{4, 4, 4}}}, {x}), nn::Error);
  EXPECT_THROW(forward_once("ImageAugmentation", {{"pad", Ints{1}}}, {x}), nn::Error);
  EXPECT_THROW(forward_once("ImageAugmentation", {}, {random_input({5}, rng)}), nn::Error);
}
