// Add2/Sub2/Mul2/Div2 (with broadcasting) and the scalar family against double references.
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"
#include "ref_broadcast.hpp"

using namespace nn::test;

namespace {

Reference binary_ref(double (*f)(double, double)) {
  return [f](const RefInputs& in, const nn::Attrs&) { return std::vector<RefArray>{broadcast_ref(in[0], in[1], f)}; };
}

void check_binary(const char* op, double (*f)(double, double), double lo = -1, double hi = 1) {
  std::mt19937 rng(3);
  run_op_test({op, {}, {random_input({2, 3, 4}, rng, lo, hi), random_input({2, 3, 4}, rng, lo, hi)}, binary_ref(f)});
  run_op_test({op, {}, {random_input({2, 3, 4}, rng, lo, hi), random_input({3, 1}, rng, lo, hi)}, binary_ref(f)});
  run_op_test({op, {}, {random_input({1, 4}, rng, lo, hi), random_input({3, 1}, rng, lo, hi)}, binary_ref(f)});
}
}  // namespace

TEST(Add2, ForwardBackwardBroadcast) { check_binary("Add2", [](double a, double b) { return a + b; }); }
TEST(Sub2, ForwardBackwardBroadcast) { check_binary("Sub2", [](double a, double b) { return a - b; }); }
TEST(Mul2, ForwardBackwardBroadcast) { check_binary("Mul2", [](double a, double b) { return a * b; }); }
TEST(Div2, ForwardBackwardBroadcast) { check_binary("Div2", [](double a, double b) { return a / b; }, 0.5, 2.0); }

namespace {
Reference scalar_ref(double (*f)(double, double)) {
  return [f](const RefInputs& in, const nn::Attrs& a) {
    RefArray y = in[0];
    double v = a.get_float("val", 1.0);
    for (auto& x : y.data) x = f(x, v);
    return std::vector<RefArray>{y};
  };
}
}  // namespace

TEST(AddScalar, ForwardBackward) {
  std::mt19937 rng(4);
  run_op_test({"AddScalar", {{"val", 2.5}}, {random_input({3, 4}, rng)}, scalar_ref([](double x, double v) { return x + v; })});
}
TEST(MulScalar, ForwardBackward) {
  std::mt19937 rng(5);
  run_op_test({"MulScalar", {{"val", -1.5}}, {random_input({3, 4}, rng)}, scalar_ref([](double x, double v) { return x * v; })});
}
TEST(PowScalar, ForwardBackward) {
  std::mt19937 rng(6);
  run_op_test({"PowScalar", {{"val", 2.5}}, {random_input({3, 4}, rng, 0.5, 2.0)},
               scalar_ref([](double x, double v) { return std::pow(x, v); })});
}
