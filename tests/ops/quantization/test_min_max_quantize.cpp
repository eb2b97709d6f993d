// MinMaxQuantize against a double reference of the nudged range; straight-through and range gradients.
#include <gtest/gtest.h>

#include <cmath>

#include "../nn_layer/direct_run.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {

struct Nudged {
  double lo, hi, scale;
};

Nudged nudge(double mn, double mx, double lmin, double lmax, double eps) {
  if (mx - mn < eps) mx = mn + eps;
  double scale = (mx - mn) / (lmax - lmin);
  double z0 = lmin - mn / scale;
  double z = z0 <= lmin ? lmin : z0 >= lmax ? lmax : std::round(z0);
  return {(lmin - z) * scale, (lmax - z) * scale, scale};
}

// Range per channel of a (N, C) input with (1, C) or (1, 1) range arrays.
Reference min_max_ref(double eps) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    RefArray y = in[0];
    const int64_t c = in[1].shape[1];
    for (size_t i = 0; i < y.data.size(); ++i) {
      size_t j = i % size_t(c);
      Nudged r = nudge(in[1].data[j], in[2].data[j], in[3].data[j], in[4].data[j], eps);
      double v = std::min(std::max(in[0].data[i], r.lo), r.hi);
      y.data[i] = std::round((v - r.lo) / r.scale) * r.scale + r.lo;
    }
    return std::vector<RefArray>{y};
  };
}

}  // namespace

TEST(MinMaxQuantize, GivenRangeForwardAndGradients) {
  RefArray x{{3, 2}, {-1.3, 0.41, 0.2, 2.7, 0.93, -0.6}};
  RefArray qr_min{{1, 2}, {-0.8, -0.5}}, qr_max{{1, 2}, {0.9, 1.5}};
  RefArray ql_min{{1, 2}, {0, 0}}, ql_max{{1, 2}, {255, 15}};
  OpTestCase tc{"MinMaxQuantize", {}, {x, qr_min, qr_max, ql_min, ql_max}, min_max_ref(0.01)};
  tc.check_backward = false;  // straight-through gradients, checked directly below
  run_op_test(tc);

  std::vector<double> g{1, 2, 3, 4, 5, 6};
  auto o = run_direct("MinMaxQuantize", {}, {x, qr_min, qr_max, ql_min, ql_max}, g,
                      {true, true, true, false, false}, false, 0.f);
  double gmin[2] = {0, 0}, gmax[2] = {0, 0};
  for (size_t i = 0; i < 6; ++i) {
    size_t j = i % 2;
    Nudged r = nudge(qr_min.data[j], qr_max.data[j], ql_min.data[j], ql_max.data[j], 0.01);
    bool inside = x.data[i] >= r.lo && x.data[i] <= r.hi;
    EXPECT_NEAR(o.grad[0][i], inside ? g[i] : 0.0, 1e-6) << i;
    if (x.data[i] < r.lo) gmin[j] += g[i];
    if (x.data[i] > r.hi) gmax[j] += g[i];
  }
  for (size_t j = 0; j < 2; ++j) {
    EXPECT_NEAR(o.grad[1][j], gmin[j], 1e-6);
    EXPECT_NEAR(o.grad[2][j], gmax[j], 1e-6);
  }
}

TEST(MinMaxQuantize, RangeFromXWithEma) {
  RefArray x{{2, 3}, {-1.0, 0.5, 2.0, 3.0, -0.25, 0.0}};
  RefArray qr_min{{1, 1}, {-0.5}}, qr_max{{1, 1}, {1.0}};
  RefArray ql_min{{1, 1}, {0}}, ql_max{{1, 1}, {255}};
  nn::Attrs a{{"x_min_max", true}, {"ema", true}, {"decay", 0.5}};
  std::vector<double> g(6, 1.0);
  auto o = run_direct("MinMaxQuantize", a, {x, qr_min, qr_max, ql_min, ql_max}, g,
                      {true, false, false, false, false}, false, 0.f);
  // EMA with decay 0.5: min = 0.5 * -0.5 + 0.5 * -1 = -0.75, max = 0.5 * 1 + 0.5 * 3 = 2.
  EXPECT_NEAR(o.data[1][0], -0.75, 1e-6);
  EXPECT_NEAR(o.data[2][0], 2.0, 1e-6);
  auto y = min_max_ref(0.01)({x, {{1, 1}, {-0.75}}, {{1, 1}, {2.0}}, ql_min, ql_max}, {});
  for (size_t i = 0; i < 6; ++i) EXPECT_NEAR(o.y[i], y[0].data[i], 1e-5) << i;
}
