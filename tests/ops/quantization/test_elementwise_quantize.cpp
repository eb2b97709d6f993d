// FixedPointQuantize, Pow2Quantize, Prune: forward against double references, straight-through backward.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "../nn_layer/direct_run.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {

// Checks dx = mask(x) * dy, both overwriting and accumulating onto a prefilled grad.
void check_ste(const std::string& type, const nn::Attrs& attrs, const RefArray& x,
               const std::function<bool(double)>& passes) {
  std::mt19937 rng(3);
  auto g = random_input(x.shape, rng).data;
  for (bool accum : {false, true}) {
    auto o = run_direct(type, attrs, {x}, g, {true}, accum, 0.5f);
    for (size_t i = 0; i < g.size(); ++i) {
      double want = (passes(x.data[i]) ? g[i] : 0.0) + (accum ? 0.5 : 0.0);
      EXPECT_NEAR(o.grad[0][i], want, 1e-6) << type << " x=" << x.data[i] << " accum=" << accum;
    }
  }
}

std::vector<double> fixed_point_kinks(double delta, int levels) {
  std::vector<double> k;
  for (int i = -levels; i <= levels; ++i) k.push_back((i + 0.5) * delta);
  return k;
}

Reference fixed_point_ref(bool sign, int n, double delta) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    double mx = (std::pow(2.0, sign ? n - 1 : n) - 1) * delta, mn = sign ? -mx : 0.0;
    RefArray y = in[0];
    for (auto& v : y.data) {
      if (v > mx)
        v = mx;
      else if (v < mn)
        v = mn;
      else
        v = (v < 0 ? -1 : 1) * std::floor(std::fabs(v) / delta + 0.5) * delta;
    }
    return std::vector<RefArray>{y};
  };
}

Reference pow2_ref(bool sign, bool with_zero, int n, int m) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    int bits = (sign ? n - 1 : n) - (with_zero ? 1 : 0);
    double pmax = std::pow(2.0, m), pmin = std::pow(2.0, m - ((1 << bits) - 1));
    RefArray y = in[0];
    for (auto& v : y.data) {
      double a = std::fabs(v), q = std::pow(2.0, std::round(std::log2(a)));
      if (q > pmax) q = pmax;
      if (q < pmin) q = (with_zero && a < pmin / std::sqrt(2.0)) ? 0.0 : pmin;
      v = v < 0 ? (sign ? -q : (with_zero ? 0.0 : pmin)) : q;
    }
    return std::vector<RefArray>{y};
  };
}

std::vector<double> pow2_kinks() {
  std::vector<double> k;
  for (int e = -12; e < 4; ++e) k.push_back(std::pow(2.0, e + 0.5)), k.push_back(-std::pow(2.0, e + 0.5));
  return k;
}

}  // namespace

TEST(FixedPointQuantize, SignedDefault) {
  std::mt19937 rng(1);
  auto x = random_input({3, 5}, rng, -9, 9, fixed_point_kinks(0.0625, 200), 1e-3);
  OpTestCase tc{"FixedPointQuantize", {}, {x}, fixed_point_ref(true, 8, 0.0625)};
  tc.check_backward = false;  // piecewise constant: the gradient is straight-through, checked below
  run_op_test(tc);
  check_ste("FixedPointQuantize", {}, x, [](double v) { return std::fabs(v) <= 127 * 0.0625; });
}

TEST(FixedPointQuantize, UnsignedCoarse) {
  std::mt19937 rng(2);
  nn::Attrs a{{"sign", false}, {"n", int64_t(3)}, {"delta", 0.25}};
  auto x = random_input({4, 4}, rng, -1, 2.5, fixed_point_kinks(0.25, 10), 1e-3);
  OpTestCase tc{"FixedPointQuantize", a, {x}, fixed_point_ref(false, 3, 0.25)};
  tc.check_backward = false;
  run_op_test(tc);
  check_ste("FixedPointQuantize", a, x, [](double v) { return v >= 0 && v <= 7 * 0.25; });
  nn::Attrs naive = a;
  naive.set("ste_fine_grained", false);
  check_ste("FixedPointQuantize", naive, x, [](double) { return true; });
}

TEST(Pow2Quantize, SignedWithZero) {
  std::mt19937 rng(4);
  nn::Attrs a{{"n", int64_t(4)}, {"m", int64_t(1)}};
  auto x = random_input({4, 5}, rng, -3, 3, pow2_kinks(), 1e-3);
  OpTestCase tc{"Pow2Quantize", a, {x}, pow2_ref(true, true, 4, 1)};
  tc.check_backward = false;
  run_op_test(tc);
  check_ste("Pow2Quantize", a, x,
            [](double v) { return std::pow(2.0, std::round(std::log2(std::fabs(v)))) <= 2; });
}

TEST(Pow2Quantize, UnsignedNoZero) {
  std::mt19937 rng(5);
  nn::Attrs a{{"sign", false}, {"with_zero", false}, {"n", int64_t(3)}, {"m", int64_t(0)}};
  auto x = random_input({3, 6}, rng, -2, 2, pow2_kinks(), 1e-3);
  OpTestCase tc{"Pow2Quantize", a, {x}, pow2_ref(false, false, 3, 0)};
  tc.check_backward = false;
  run_op_test(tc);
  check_ste("Pow2Quantize", a, x,
            [](double v) { return v >= 0 && std::pow(2.0, std::round(std::log2(std::fabs(v)))) <= 1; });
}

TEST(Prune, RatesAndPassThroughGradient) {
  for (double rate : {0.0, 0.3, 0.9, 1.0}) {
    std::mt19937 rng(6);
    auto x = random_input({2, 7}, rng);
    Reference ref = [rate](const RefInputs& in, const nn::Attrs&) {
      std::vector<double> mags;
      for (double v : in[0].data) mags.push_back(std::fabs(v));
      std::sort(mags.begin(), mags.end());
      double t = mags[size_t(double(mags.size() - 1) * rate)] + (rate == 1.0 ? 1.0 : 0.0);
      RefArray y = in[0];
      for (auto& v : y.data) v = std::fabs(v) < t ? 0.0 : v;
      return std::vector<RefArray>{y};
    };
    OpTestCase tc{"Prune", {{"rate", rate}}, {x}, ref};
    tc.check_backward = false;  // the gradient passes unchanged (not the mask's derivative)
    run_op_test(tc);
    check_ste("Prune", {{"rate", rate}}, x, [](double) { return true; });
  }
}
