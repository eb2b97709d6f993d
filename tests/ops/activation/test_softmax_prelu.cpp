// Softmax, LogSoftmax, CReLU, CELU, PReLU: axis handling against double references.
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"

using namespace nn::test;

namespace {
// Splits a shape around an axis into (outer, size, inner).
struct Split {
  int64_t outer = 1, size = 1, inner = 1;
};
Split split(const nn::Shape& s, int axis) {
  Split r;
  for (int d = 0; d < int(s.size()); ++d) {
    if (d < axis)
      r.outer *= s[d];
    else if (d == axis)
      r.size = s[d];
    else
      r.inner *= s[d];
  }
  return r;
}
int axis_of(const nn::Attrs& a, const nn::Shape& s, int64_t def) {
  int64_t ax = a.get_int("axis", def);
  return int(ax < 0 ? ax + int64_t(s.size()) : ax);
}

std::vector<RefArray> softmax_ref(const RefInputs& in, const nn::Attrs& a, bool log) {
  const RefArray& x = in[0];
  Split sp = split(x.shape, axis_of(a, x.shape, int64_t(x.shape.size()) - 1));
  RefArray y = x;
  for (int64_t o = 0; o < sp.outer; ++o)
    for (int64_t j = 0; j < sp.inner; ++j) {
      auto at = [&](int64_t c) { return size_t((o * sp.size + c) * sp.inner + j); };
      double s = 0;
      for (int64_t c = 0; c < sp.size; ++c) s += std::exp(x.data[at(c)]);
      for (int64_t c = 0; c < sp.size; ++c)
        y.data[at(c)] = log ? x.data[at(c)] - std::log(s) : std::exp(x.data[at(c)]) / s;
    }
  return {y};
}

// f(x) and f(-x) concatenated along axis.
RefArray concat_ref(const RefArray& x, int axis, double (*f)(double, double), double alpha) {
  Split sp = split(x.shape, axis);
  nn::Shape os = x.shape;
  os[size_t(axis)] *= 2;
  RefArray y{os, std::vector<double>(x.data.size() * 2)};
  for (int64_t o = 0; o < sp.outer; ++o)
    for (int64_t c = 0; c < sp.size; ++c)
      for (int64_t j = 0; j < sp.inner; ++j) {
        double v = x.data[size_t((o * sp.size + c) * sp.inner + j)];
        y.data[size_t((o * 2 * sp.size + c) * sp.inner + j)] = f(v, alpha);
        y.data[size_t((o * 2 * sp.size + sp.size + c) * sp.inner + j)] = f(-v, alpha);
      }
  return y;
}
double relu(double x, double) { return std::max(x, 0.0); }
double elu(double x, double alpha) { return x >= 0 ? x : alpha * (std::exp(x) - 1); }
}  // namespace

TEST(Softmax, AxesDefaultAndExplicit) {
  std::mt19937 rng(5);
  auto ref = [](const RefInputs& in, const nn::Attrs& a) { return softmax_ref(in, a, false); };
  auto x = random_input({2, 3, 4}, rng, -3, 3);
  run_op_test({"Softmax", {}, {x}, ref});
  run_op_test({"Softmax", {{"axis", int64_t(1)}}, {x}, ref});
  run_op_test({"Softmax", {{"axis", int64_t(0)}}, {x}, ref});
}
TEST(Softmax, StableForLargeInputs) {
  std::mt19937 rng(6);
  run_op_test({"Softmax",
               {},
               {random_input({3, 5}, rng, 500, 520)},
               [](const RefInputs& in, const nn::Attrs& a) {
                 RefArray shifted = in[0];
                 for (auto& v : shifted.data) v -= 510;  // the reference itself would overflow
                 return softmax_ref({shifted}, a, false);
               },
               1e-5,
               1e-4,
               2e-3,
               2e-3,
               1e-2});  // eps 1e-2: float inputs near 500 resolve only ~3e-5
}
TEST(LogSoftmax, AxesDefaultAndExplicit) {
  std::mt19937 rng(7);
  auto ref = [](const RefInputs& in, const nn::Attrs& a) { return softmax_ref(in, a, true); };
  auto x = random_input({2, 3, 4}, rng, -3, 3);
  run_op_test({"LogSoftmax", {}, {x}, ref});
  run_op_test({"LogSoftmax", {{"axis", int64_t(1)}}, {x}, ref});
  run_op_test({"LogSoftmax", {{"axis", int64_t(-3)}}, {x}, ref});
}
TEST(CReLU, Axes) {
  std::mt19937 rng(8);
  auto x = random_input({2, 3, 4}, rng, -1, 1, {0});
  for (int64_t axis : {1, 0, 2})
    run_op_test({"CReLU", {{"axis", axis}}, {x}, [](const RefInputs& in, const nn::Attrs& a) {
                   return std::vector<RefArray>{concat_ref(in[0], int(a.get_int("axis", 1)), relu, 0)};
                 }});
}
TEST(CELU, AxesAndAlpha) {
  std::mt19937 rng(9);
  auto x = random_input({2, 3, 4}, rng, -2, 2, {0});
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    return std::vector<RefArray>{concat_ref(in[0], int(a.get_int("axis", 1)), elu, a.get_float("alpha", 1.0))};
  };
  run_op_test({"CELU", {}, {x}, ref});
  run_op_test({"CELU", {{"axis", int64_t(2)}, {"alpha", 0.5}}, {x}, ref});
}

namespace {
std::vector<RefArray> prelu_ref(const RefInputs& in, const nn::Attrs& a) {
  const RefArray& x = in[0];
  const RefArray& w = in[1];
  int base = int(a.get_int("base_axis", 1));
  Split sp = split(x.shape, base);
  RefArray y = x;
  for (size_t i = 0; i < y.data.size(); ++i) {
    int64_t c = (int64_t(i) / sp.inner) % sp.size;
    double slope = w.data.size() == 1 ? w.data[0] : w.data[size_t(c)];
    y.data[i] = x.data[i] >= 0 ? x.data[i] : slope * x.data[i];
  }
  return {y};
}
}  // namespace

TEST(PReLU, SharedAndPerChannel) {
  std::mt19937 rng(10);
  auto x = random_input({2, 3, 4}, rng, -1, 1, {0});
  run_op_test({"PReLU", {}, {x, random_input({1}, rng, 0, 0.5)}, prelu_ref});
  run_op_test({"PReLU", {}, {x, random_input({3}, rng, 0, 0.5)}, prelu_ref});
  run_op_test({"PReLU", {{"base_axis", int64_t(2)}}, {x, random_input({4}, rng, 0, 0.5)}, prelu_ref});
}
TEST(PReLU, RejectsWrongSlopeShape) {
  std::mt19937 rng(10);
  EXPECT_ANY_THROW(run_op_test({"PReLU", {}, {random_input({2, 3}, rng), random_input({2}, rng)}, prelu_ref}));
}
