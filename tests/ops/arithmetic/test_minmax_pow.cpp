// Pow2, Maximum2, Minimum2 (broadcasting) and the reverse / min / max scalar family against double
// references.
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"
#include "ref_broadcast.hpp"

using namespace nn::test;

namespace {
Reference binary(double (*f)(double, double)) {
  return
      [f](const RefInputs& in, const nn::Attrs&) { return std::vector<RefArray>{broadcast_ref(in[0], in[1], f)}; };
}
void check_binary(const char* op, double (*f)(double, double), double lo, double hi, double lo1, double hi1) {
  std::mt19937 rng(21);
  run_op_test({op, {}, {random_input({2, 3, 4}, rng, lo, hi), random_input({2, 3, 4}, rng, lo1, hi1)}, binary(f)});
  run_op_test({op, {}, {random_input({2, 3, 4}, rng, lo, hi), random_input({3, 1}, rng, lo1, hi1)}, binary(f)});
  run_op_test({op, {}, {random_input({1, 4}, rng, lo, hi), random_input({3, 1}, rng, lo1, hi1)}, binary(f)});
}
// Values on a grid of 0.25 steps, so that max/min never tie with the other input's values (offset by 0.125).
RefArray grid_values(const nn::Shape& s, std::mt19937& rng, double offset) {
  RefArray a = random_input(s, rng, -2, 2);
  for (auto& v : a.data) v = std::round(v * 4) / 4 + offset;
  return a;
}
}  // namespace

TEST(Pow2, ForwardBackwardBroadcast) {
  check_binary(
      "Pow2", [](double a, double b) { return std::pow(a, b); }, 0.5, 2.0, -1.5, 1.5);
}
TEST(Maximum2, ForwardBackwardBroadcast) {
  std::mt19937 rng(22);
  auto f = [](double a, double b) { return std::max(a, b); };
  run_op_test({"Maximum2", {}, {grid_values({2, 3, 4}, rng, 0), grid_values({2, 3, 4}, rng, 0.125)}, binary(f)});
  run_op_test({"Maximum2", {}, {grid_values({2, 3, 4}, rng, 0), grid_values({3, 1}, rng, 0.125)}, binary(f)});
}
TEST(Minimum2, ForwardBackwardBroadcast) {
  std::mt19937 rng(23);
  auto f = [](double a, double b) { return std::min(a, b); };
  run_op_test({"Minimum2", {}, {grid_values({2, 3, 4}, rng, 0), grid_values({2, 3, 4}, rng, 0.125)}, binary(f)});
  run_op_test({"Minimum2", {}, {grid_values({4}, rng, 0), grid_values({3, 1}, rng, 0.125)}, binary(f)});
}

namespace {
Reference scalar(double (*f)(double, double)) {
  return [f](const RefInputs& in, const nn::Attrs& a) {
    RefArray y = in[0];
    for (auto& x : y.data) x = f(x, a.get_float("val", 1.0));
    return std::vector<RefArray>{y};
  };
}
void check_scalar(const char* op, double (*f)(double, double), double val, double lo, double hi,
                  std::vector<double> kinks = {}) {
  std::mt19937 rng(24);
  run_op_test({op, {{"val", val}}, {random_input({3, 5}, rng, lo, hi, kinks)}, scalar(f)});
  run_op_test({op, {}, {random_input({4}, rng, lo, hi, {1.0})}, scalar(f)});  // default val = 1
}
}  // namespace

TEST(RSubScalar, ForwardBackward) {
  check_scalar(
      "RSubScalar", [](double x, double v) { return v - x; }, 2.5, -2, 2);
}
TEST(RDivScalar, ForwardBackward) {
  check_scalar(
      "RDivScalar", [](double x, double v) { return v / x; }, -1.5, 0.5, 2);
}
TEST(RPowScalar, ForwardBackward) {
  check_scalar(
      "RPowScalar", [](double x, double v) { return std::pow(v, x); }, 2.5, -2, 2);
}
TEST(MaximumScalar, ForwardBackward) {
  check_scalar("MaximumScalar", [](double x, double v) { return std::max(x, v); }, 0.3, -2, 2, {0.3});
}
TEST(MinimumScalar, ForwardBackward) {
  check_scalar("MinimumScalar", [](double x, double v) { return std::min(x, v); }, -0.3, -2, 2, {-0.3});
}
