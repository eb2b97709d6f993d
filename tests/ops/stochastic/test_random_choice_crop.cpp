// RandomChoice and RandomCrop: replayed draws as references, frequencies, no-replacement, gradients.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "op_tester.hpp"
#include "run_forward.hpp"

using namespace nn::test;
using Ints = std::vector<int64_t>;

TEST(RandomChoice, SingleWeightIsDeterministic) {
  // Only one positive weight per row: every draw takes it, so a plain reference applies.
  std::mt19937 rng(1);
  RefArray w{{2, 4}, {0, 0, 2, 0, 1, 0, 0, 0}};
  auto ref = [](const RefInputs& in, const nn::Attrs&) {
    RefArray y{{2, 3}, {}};
    for (int b = 0; b < 2; ++b)
      for (int d = 0; d < 3; ++d) y.data.push_back(in[0].data[b * 4 + (b == 0 ? 2 : 0)]);
    return std::vector<RefArray>{y};
  };
  OpTestCase tc{"RandomChoice", {{"shape", Ints{3}}, {"seed", int64_t(3)}}, {random_input({2, 4}, rng), w}, ref};
  tc.check_grad = {true, false};  // w's gradient is upstream's dy at the chosen weights, not a derivative
  run_op_test(tc);
}

TEST(RandomChoice, FrequenciesFollowWeights) {
  RefArray x{{4}, {10, 20, 30, 40}}, w{{4}, {1, 0, 3, 4}};
  auto r = forward_once("RandomChoice", {{"shape", Ints{100, 80}}, {"seed", int64_t(5)}}, {x, w});
  EXPECT_EQ(r.shapes[0], (nn::Shape{100, 80}));
  std::map<float, int> count;
  for (float v : r.outputs[0]) ++count[v];
  EXPECT_EQ(count[20.f], 0);
  EXPECT_NEAR(count[10.f] / 8000.0, 1.0 / 8, 0.015);
  EXPECT_NEAR(count[30.f] / 8000.0, 3.0 / 8, 0.02);
  EXPECT_NEAR(count[40.f] / 8000.0, 4.0 / 8, 0.02);
  EXPECT_EQ(r.outputs[0],
            forward_once("RandomChoice", {{"shape", Ints{100, 80}}, {"seed", int64_t(5)}}, {x, w}).outputs[0]);
}

TEST(RandomChoice, WithoutReplacementDrawsDistinct) {
  RefArray x{{2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}, w{{2, 5}, {1, 2, 0, 4, 1, 1, 1, 1, 1, 1}};
  for (int seed = 0; seed < 10; ++seed) {
    auto y =
        forward_once("RandomChoice", {{"shape", Ints{4}}, {"replace", false}, {"seed", int64_t(seed)}}, {x, w})
            .outputs[0];
    std::set<float> first(y.begin(), y.begin() + 4), second(y.begin() + 4, y.end());
    EXPECT_EQ(first, (std::set<float>{0, 1, 3, 4}));  // the four positive weights
    EXPECT_EQ(second.size(), 4u);
  }
  EXPECT_THROW(forward_once("RandomChoice", {{"shape", Ints{6}}, {"replace", false}}, {x, w}), nn::Error);
}

namespace {

// Replays upstream's draws: per sample, one g() % (n - c + 1) for each cropped axis.
std::vector<RefArray> crop_reference(const RefInputs& in, const nn::Attrs& a) {
  const nn::Shape& xs = in[0].shape;
  Ints shape = a.get_ints("shape", {});
  const int64_t base = a.get_int("base_axis", 1);
  const size_t off = xs.size() - shape.size();
  nn::Shape ys = xs;
  for (size_t i = 0; i < shape.size(); ++i) ys[off + i] = shape[i];
  std::mt19937 g(uint32_t(a.get_int("seed", 0)));
  const int64_t samples = ref_size(nn::Shape(xs.begin(), xs.begin() + base));
  const nn::Shape xin(xs.begin() + base, xs.end()), yin(ys.begin() + base, ys.end());
  RefArray y{ys, {}};
  for (int64_t s = 0; s < samples; ++s) {
    std::vector<int64_t> start(xs.size(), 0);
    for (size_t d = off; d < xs.size(); ++d) start[d] = int64_t(g() % uint32_t(xs[d] - ys[d] + 1));
    for (int64_t i = 0; i < ref_size(yin); ++i) {
      int64_t rem = i, flat = 0;
      std::vector<int64_t> idx(yin.size());
      for (int d = int(yin.size()) - 1; d >= 0; --d) {
        idx[d] = rem % yin[d];
        rem /= yin[d];
      }
      for (size_t d = 0; d < yin.size(); ++d) flat = flat * xin[d] + idx[d] + start[base + d];
      y.data.push_back(in[0].data[size_t(s * ref_size(xin) + flat)]);
    }
  }
  return {y};
}

}  // namespace

TEST(RandomCrop, ReplayedWindows) {
  std::mt19937 rng(2);
  run_op_test({"RandomCrop",
               {{"shape", Ints{2, 3}}, {"seed", int64_t(4)}},
               {random_input({3, 2, 4, 5}, rng)},
               crop_reference});
  run_op_test({"RandomCrop",
               {{"shape", Ints{3}}, {"base_axis", int64_t(0)}, {"seed", int64_t(1)}},
               {random_input({2, 6}, rng)},
               crop_reference});
  // Default shape: no crop.
  auto x = random_input({2, 3}, rng);
  auto y = forward_once("RandomCrop", {}, {x}).outputs[0];
  for (size_t i = 0; i < y.size(); ++i) EXPECT_EQ(y[i], float(x.data[i]));
  EXPECT_THROW(forward_once("RandomCrop", {{"shape", Ints{5}}}, {x}), nn::Error);
}
