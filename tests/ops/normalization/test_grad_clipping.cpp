// ClipGradByValue and ClipGradByNorm: identity forward, clipped gradients in backward.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "../special/custom_grad_check.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {
std::vector<RefArray> identity_ref(const RefInputs& in, const nn::Attrs&) { return {in[0]}; }

std::vector<double> random_grad(size_t n, std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  std::vector<double> g(n);
  for (auto& v : g) v = double(float(u(rng)));
  return g;
}
}  // namespace

TEST(ClipGradByValue, ForwardIdentityBackwardClips) {
  std::mt19937 rng(6);
  auto x = random_input({2, 5}, rng);
  RefArray lo{{2, 5}, std::vector<double>(10, -0.3)}, hi{{2, 5}, std::vector<double>(10, 0.4)};
  lo.data[3] = -2.0;  // element-wise bounds
  hi.data[7] = 0.05;
  OpTestCase tc{"ClipGradByValue", {}, {x, lo, hi}, identity_ref};
  tc.check_backward = false;  // the backward is not the forward's derivative; checked below
  run_op_test(tc);
  auto g = random_grad(10, rng, 1.0);
  std::vector<double> want(10);
  for (size_t i = 0; i < 10; ++i) want[i] = std::min(std::max(g[i], lo.data[i]), hi.data[i]);
  check_custom_backward("ClipGradByValue", {}, {x, lo, hi}, g, {want, {}, {}});
}

TEST(ClipGradByNorm, AllAxesAndChosenAxes) {
  std::mt19937 rng(7);
  auto x = random_input({2, 3, 4}, rng);
  OpTestCase tc{"ClipGradByNorm", {}, {x}, identity_ref};
  tc.check_backward = false;  // the backward rescales the gradient; checked below
  run_op_test(tc);
  auto g = random_grad(24, rng, 2.0);
  // All axes: one norm over the whole gradient.
  double total = 0;
  for (double v : g) total += v * v;
  std::vector<double> want(24);
  for (size_t i = 0; i < 24; ++i) want[i] = 0.5 * g[i] / std::sqrt(total);
  check_custom_backward("ClipGradByNorm", {{"clip_norm", 0.5}}, {x}, g, {want});
  // axes={1}: a norm per (i, k) column across axis 1.
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      double s = 0;
      for (int j = 0; j < 3; ++j) s += g[size_t((i * 3 + j) * 4 + k)] * g[size_t((i * 3 + j) * 4 + k)];
      for (int j = 0; j < 3; ++j)
        want[size_t((i * 3 + j) * 4 + k)] = 2.0 * g[size_t((i * 3 + j) * 4 + k)] / std::sqrt(s);
    }
  check_custom_backward("ClipGradByNorm", {{"clip_norm", 2.0}, {"axes", std::vector<int64_t>{1}}}, {x}, g, {want});
}
