// QuantizeLinear and DequantizeLinear against double references; per-channel scale and zero point.
#include <gtest/gtest.h>

#include <cmath>

#include "../nn_layer/direct_run.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {

double bcast(const RefArray& b, const nn::Shape& xs, size_t i) {
  int64_t j = 0, stride = 1;
  int64_t rest = int64_t(i);
  for (int d = int(xs.size()) - 1; d >= 0; --d) {
    int64_t c = rest % xs[d];
    rest /= xs[d];
    if (b.shape[d] != 1) j += c * stride;
    stride *= b.shape[d];
  }
  return b.data[size_t(j)];
}

double round_mode(double v, bool to_even) {
  double t = std::round(v);
  if (to_even && std::fabs(v - t) == 0.5) return 2 * std::round(v / 2);
  return t;
}

Reference quantize_ref(bool to_even, double lo, double hi) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    RefArray y = in[0];
    auto sat = [&](double v) { return std::min(std::max(v, lo), hi); };
    for (size_t i = 0; i < y.data.size(); ++i) {
      double z = sat(round_mode(bcast(in[2], in[0].shape, i), to_even));
      y.data[i] = sat(round_mode(in[0].data[i] / bcast(in[1], in[0].shape, i), to_even) + z);
    }
    return std::vector<RefArray>{y};
  };
}

}  // namespace

TEST(QuantizeLinear, PerChannelInt8) {
  RefArray x{{2, 3, 2}, {-3.1, 0.25, 7.5, 100, -200, 0.74, 1.26, -0.5, 2.5, -2.5, 31.2, -0.9}};
  RefArray s{{1, 3, 1}, {0.5, 0.25, 0.1}};
  RefArray z{{1, 3, 1}, {0, 3, -2}};
  OpTestCase tc{"QuantizeLinear", {}, {x, s, z}, quantize_ref(false, -128, 127)};
  tc.check_backward = false;  // straight-through dy / scale, checked below
  run_op_test(tc);
  std::vector<double> g(12, 1.0);
  auto o = run_direct("QuantizeLinear", {}, {x, s, z}, g, {true, false, false}, true, 1.0f);
  for (size_t i = 0; i < 12; ++i) EXPECT_NEAR(o.grad[0][i], 1.0 + 1.0 / bcast(s, x.shape, i), 1e-5);
}

TEST(QuantizeLinear, HalfToEvenUint8Narrow) {
  RefArray x{{6}, {0.5, 1.5, 2.5, -0.5, 300, -7}};
  RefArray s{{1}, {1.0}};
  RefArray z{{1}, {0.5}};
  nn::Attrs a{{"round_mode", std::string("HALF_TO_EVEN")}, {"narrow_range", true}, {"dtype", int64_t(2)}};
  OpTestCase tc{"QuantizeLinear", a, {x, s, z}, quantize_ref(true, 1, 255)};
  tc.check_backward = false;
  run_op_test(tc);
}

TEST(DequantizeLinear, PerChannel) {
  std::mt19937 rng(8);
  auto x = random_input({2, 3, 2}, rng, -100, 100);
  RefArray s{{1, 3, 1}, {0.5, 0.25, 0.1}};
  RefArray z{{1, 3, 1}, {0, 3, -2}};
  Reference ref = [](const RefInputs& in, const nn::Attrs&) {
    RefArray y = in[0];
    for (size_t i = 0; i < y.data.size(); ++i)
      y.data[i] = (in[0].data[i] - bcast(in[2], in[0].shape, i)) * bcast(in[1], in[0].shape, i);
    return std::vector<RefArray>{y};
  };
  OpTestCase tc{"DequantizeLinear", {}, {x, s, z}, ref};
  tc.check_grad = {true, false, false};  // upstream has no gradient for scale and zero point
  run_op_test(tc);
}
