// RandomErase: replayed draws as the reference (shared and per-channel boxes, several boxes), gradients
// zero on erased pixels, straight-through without ste_fine_grained.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "op_tester.hpp"
#include "run_forward.hpp"

using namespace nn::test;

namespace {

struct Box {
  float prob;
  int64_t y0, x0, y1, x1;
};

// Replays upstream's draws on its own mt19937: boxes (area, aspect, prob, top, left), then fill values.
std::vector<RefArray> erase_reference(const RefInputs& in, const nn::Attrs& a) {
  const auto& xs = in[0].shape;
  const int64_t base = a.get_int("base_axis", 1), n = a.get_int("n", 1);
  const bool share = a.get_bool("share", true);
  const float prob = float(a.get_float("prob", 0.5));
  const auto area = a.get_floats("area_ratios", {0.02, 0.4}),
             aspect = a.get_floats("aspect_ratios", {0.3, 3.3333});
  const auto rep = a.get_floats("replacements", {0.0, 255.0});
  int64_t batches = 1;
  for (int64_t d = 0; d < base; ++d) batches *= xs[d];
  const int64_t c = xs[base], h = xs[base + 1], w = xs[base + 2];
  std::mt19937 g(uint32_t(a.get_int("seed", 0)));
  std::uniform_real_distribution<float> u_prob(0.f, 1.f),
      u_area(static_cast<float>(area[0]), static_cast<float>(area[1])),
      u_aspect(static_cast<float>(aspect[0]), static_cast<float>(aspect[1]));
  std::vector<Box> boxes(static_cast<size_t>(n * batches * (share ? 1 : c)));
  for (auto& b : boxes) {
    const float se = u_area(g) * float(h * w), re = u_aspect(g);
    const int64_t he = std::min<int64_t>(int64_t(std::sqrt(se * re)), h);
    const int64_t we = std::min<int64_t>(int64_t(std::sqrt(se / re)), w);
    std::uniform_int_distribution<int> top(0, int(h - he)), left(0, int(w - we));
    b.prob = u_prob(g);
    b.y0 = top(g);
    b.x0 = left(g);
    b.y1 = b.y0 + he;
    b.x1 = b.x0 + we;
  }
  std::uniform_real_distribution<float> fill(static_cast<float>(rep[0]), static_cast<float>(rep[1]));
  RefArray y = in[0];
  for (int64_t k = 0; k < n; ++k)
    for (int64_t b = 0; b < batches; ++b)
      for (int64_t ch = 0; ch < c; ++ch) {
        const Box& e = boxes[share ? k * batches + b : (k * batches + b) * c + ch];
        for (int64_t i = 0; i < h; ++i)
          for (int64_t j = 0; j < w; ++j)
            if (e.prob <= prob && e.y0 <= i && i <= e.y1 && e.x0 <= j && j <= e.x1)
              y.data[size_t(((b * c + ch) * h + i) * w + j)] = fill(g);
      }
  return {y};
}

}  // namespace

TEST(RandomErase, ReplayedDrawsAndFineGrainedGradient) {
  std::mt19937 rng(1);
  // Values in [0, 1) and replacements in [2, 3): erased pixels are recognizable.
  const nn::Attrs shared{{"prob", 0.9}, {"replacements", std::vector<double>{2.0, 3.0}}, {"seed", int64_t(3)}};
  run_op_test({"RandomErase", shared, {random_input({3, 2, 5, 6}, rng, 0, 1)}, erase_reference});
  const nn::Attrs per_channel{{"prob", 1.0},
                              {"share", false},
                              {"n", int64_t(2)},
                              {"area_ratios", std::vector<double>{0.1, 0.3}},
                              {"seed", int64_t(5)}};
  run_op_test({"RandomErase", per_channel, {random_input({2, 3, 4, 4}, rng, 0, 1)}, erase_reference});
  run_op_test({"RandomErase",
               {{"base_axis", int64_t(0)}, {"prob", 1.0}, {"seed", int64_t(2)}},
               {random_input({2, 5, 5}, rng, 0, 1)},
               erase_reference});
}

TEST(RandomErase, ErasesSomethingAndStraightThroughGradient) {
  std::mt19937 rng(2);
  auto x = random_input({4, 1, 6, 6}, rng, 0, 1);
  const nn::Attrs attrs{{"prob", 1.0},
                        {"replacements", std::vector<double>{5.0, 6.0}},
                        {"ste_fine_grained", false},
                        {"seed", int64_t(1)}};
  auto y = forward_once("RandomErase", attrs, {x}).outputs[0];
  int erased = 0;
  for (float v : y) erased += v >= 5.f;
  EXPECT_GT(erased, 0);
  // Without ste_fine_grained the gradient is dy everywhere (checked against the reference's forward only).
  OpTestCase tc{"RandomErase", attrs, {x}, erase_reference};
  tc.check_backward = false;
  run_op_test(tc);
  EXPECT_THROW(forward_once("RandomErase", {{"base_axis", int64_t(2)}}, {x}), nn::Error);
}
