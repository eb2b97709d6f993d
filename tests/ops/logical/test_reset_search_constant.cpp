// ResetNaN, ResetInf, Constant and SearchSorted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "../nn_layer/direct_run.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {
// Forward, and dx = dy where kept, 0 where replaced, on an input with NaN and +-Inf entries.
void check_reset(const char* type, bool nan_op) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  RefArray x{{2, 3}, {0.5, nan, -inf, 1.5, inf, -0.25}};
  std::vector<double> g{0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  auto o = run_direct(type, {{"val", 9.0}}, {x}, g, {true}, false, 0.f);
  for (size_t i = 0; i < 6; ++i) {
    const bool replaced = nan_op ? std::isnan(x.data[i]) : std::isinf(x.data[i]);
    if (replaced) {
      EXPECT_EQ(o.y[i], 9.f) << type << " [" << i << "]";
      EXPECT_EQ(o.grad[0][i], 0.f) << type << " grad [" << i << "]";
    } else {
      EXPECT_TRUE(std::isnan(x.data[i]) ? std::isnan(o.y[i]) : o.y[i] == float(x.data[i]))
          << type << " [" << i << "]";
      EXPECT_FLOAT_EQ(o.grad[0][i], float(g[i])) << type << " grad [" << i << "]";
    }
  }
}
std::vector<RefArray> identity_ref(const RefInputs& in, const nn::Attrs&) { return {in[0]}; }
}  // namespace

TEST(ResetNaN, ReplacesNaNOnly) {
  check_reset("ResetNaN", true);
  std::mt19937 rng(8);
  run_op_test({"ResetNaN", {{"val", 2.0}}, {random_input({3, 4}, rng)}, identity_ref});  // finite: identity
}

TEST(ResetInf, ReplacesInfOnly) {
  check_reset("ResetInf", false);
  std::mt19937 rng(9);
  run_op_test({"ResetInf", {}, {random_input({3, 4}, rng)}, identity_ref});
}

TEST(Constant, FilledWithVal) {
  auto ref = [](const RefInputs&, const nn::Attrs&) {
    return std::vector<RefArray>{RefArray{{2, 3}, std::vector<double>(6, -1.5)}};
  };
  run_op_test({"Constant", {{"val", -1.5}, {"shape", std::vector<int64_t>{2, 3}}}, {}, ref});
  auto scalar = [](const RefInputs&, const nn::Attrs&) { return std::vector<RefArray>{RefArray{{}, {0.0}}}; };
  run_op_test({"Constant", {}, {}, scalar});
}

TEST(SearchSorted, LeftAndRightPerRow) {
  RefArray seq{{2, 4}, {0.0, 1.0, 1.0, 3.0, -2.0, -1.0, 0.5, 4.0}};
  RefArray values{{2, 3}, {1.0, -5.0, 3.5, 0.5, 4.0, 9.0}};
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    const bool right = a.get_bool("right", false);
    RefArray y{in[1].shape, {}};
    for (size_t r = 0; r < 2; ++r)
      for (size_t j = 0; j < 3; ++j) {
        const double v = in[1].data[r * 3 + j];
        double idx = 0;
        for (size_t k = 0; k < 4; ++k) {
          const double s = in[0].data[r * 4 + k];
          if (right ? s <= v : s < v) idx = double(k + 1);
        }
        y.data.push_back(idx);
      }
    return std::vector<RefArray>{y};
  };
  run_op_test({"SearchSorted", {}, {seq, values}, ref});
  run_op_test({"SearchSorted", {{"right", true}}, {seq, values}, ref});
}
