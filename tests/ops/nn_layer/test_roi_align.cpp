// RoiAlign: adaptive and fixed sampling ratios, spatial_scale, boxes crossing
// the border, several images.
#include <gtest/gtest.h>

#include <cmath>

#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

using namespace nn::test;
using V = std::vector<int64_t>;

namespace {
// Bilinear sample of one channel at (y, x) with upstream's border rules; 0 when
// outside [-1, size].
double sample(const double* img, int64_t rows, int64_t cols, double y, double x) {
  if (y < -1 || y > rows || x < -1 || x > cols) return 0;
  y = std::max(y, 0.0), x = std::max(x, 0.0);
  int64_t y0 = int64_t(y), x0 = int64_t(x), y1 = y0 + 1, x1 = x0 + 1;
  if (y0 >= rows - 1) y0 = y1 = rows - 1, y = double(y0);
  if (x0 >= cols - 1) x0 = x1 = cols - 1, x = double(x0);
  const double ly = y - std::floor(y), lx = x - std::floor(x);
  return (1 - ly) * (1 - lx) * img[y0 * cols + x0] + (1 - ly) * lx * img[y0 * cols + x1] +
         ly * (1 - lx) * img[y1 * cols + x0] + ly * lx * img[y1 * cols + x1];
}

std::vector<RefArray> reference(const RefInputs& v, const nn::Attrs& a) {
  const auto& x = v[0];
  const auto& boxes = v[1];
  const V out = a.get_ints("output_size", {});
  const auto scale = a.get_floats("spatial_scale", {1.0, 1.0});
  const int64_t ratio = a.get_int("sampling_ratio", -1);
  const int64_t K = boxes.shape[0], C = x.shape[1], rows = x.shape[2], cols = x.shape[3];
  RefArray y{{K, C, out[0], out[1]}, std::vector<double>(size_t(K * C * out[0] * out[1]))};
  for (int64_t k = 0; k < K; ++k) {
    const double* b = boxes.data.data() + k * 5;
    const double bx = b[1] * scale[1], by = b[2] * scale[0];
    const double sx = std::max(b[3] * scale[1] - bx, 1.0) / out[1],
                 sy = std::max(b[4] * scale[0] - by, 1.0) / out[0];
    const int64_t gx = ratio > 0 ? ratio : int64_t(std::ceil(sx)), gy = ratio > 0 ? ratio : int64_t(std::ceil(sy));
    for (int64_t c = 0; c < C; ++c) {
      const double* img = x.data.data() + (int64_t(b[0]) * C + c) * rows * cols;
      for (int64_t oy = 0; oy < out[0]; ++oy)
        for (int64_t ox = 0; ox < out[1]; ++ox) {
          double s = 0;
          for (int64_t i = 0; i < gy; ++i)
            for (int64_t j = 0; j < gx; ++j)
              s += sample(img, rows, cols, by + oy * sy + (i + 0.5) * sy / gy, bx + ox * sx + (j + 0.5) * sx / gx);
          y.data[size_t(((k * C + c) * out[0] + oy) * out[1] + ox)] = s / double(gx * gy);
        }
    }
  }
  return {y};
}

void run(const nn::Shape& x, const std::vector<double>& boxes, nn::Attrs a, uint32_t seed) {
  std::mt19937 rng(seed);
  RefArray b{{int64_t(boxes.size() / 5), 5}, boxes};
  OpTestCase tc{"RoiAlign", a, {random_input(x, rng), b}, reference};
  tc.check_grad = {true, false};  // boxes get no gradient, as upstream
  run_op_test(tc);
}
}  // namespace

TEST(RoiAlign, AdaptiveSampling) {
  run({1, 2, 6, 7}, {0, 0.5, 1.25, 4.5, 5.0, 0, 2.2, 0.3, 6.1, 3.7}, {{"output_size", V{2, 3}}}, 1);
}

TEST(RoiAlign, FixedRatioScaleAndBorders) {
  nn::Attrs a{
      {"output_size", V{3, 2}}, {"sampling_ratio", int64_t(2)}, {"spatial_scale", std::vector<double>{0.5, 0.25}}};
  run({2, 3, 5, 6}, {1, -4.0, -2.0, 20.0, 8.0, 0, 3.0, 1.0, 9.0, 9.5, 1, 10.0, 4.2, 30.0, 12.5}, a, 2);
}

TEST(RoiAlign, RejectsBadBoxes) {
  auto f = nn::OpRegistry::instance().create("RoiAlign", {{"output_size", V{2, 2}}}, nn::cpu_context());
  auto x = nn::Variable::create({1, 2, 4, 4}), b = nn::Variable::create({3, 4}), y = nn::Variable::create();
  EXPECT_THROW(f->setup({x.get(), b.get()}, {y.get()}), nn::Error);
}
