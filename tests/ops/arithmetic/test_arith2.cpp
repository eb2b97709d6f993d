// Add2/Sub2/Mul2/Div2 (with broadcasting) and the scalar family against double references.
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"
#include "nn/graph/functions.hpp"
#include "ref_broadcast.hpp"

using namespace nn::test;

namespace {

Reference binary_ref(double (*f)(double, double)) {
  return
      [f](const RefInputs& in, const nn::Attrs&) { return std::vector<RefArray>{broadcast_ref(in[0], in[1], f)}; };
}

void check_binary(const char* op, double (*f)(double, double), double lo = -1, double hi = 1) {
  std::mt19937 rng(3);
  run_op_test(
      {op, {}, {random_input({2, 3, 4}, rng, lo, hi), random_input({2, 3, 4}, rng, lo, hi)}, binary_ref(f)});
  run_op_test({op, {}, {random_input({2, 3, 4}, rng, lo, hi), random_input({3, 1}, rng, lo, hi)}, binary_ref(f)});
  run_op_test({op, {}, {random_input({1, 4}, rng, lo, hi), random_input({3, 1}, rng, lo, hi)}, binary_ref(f)});
}
}  // namespace

TEST(Add2, ForwardBackwardBroadcast) {
  check_binary("Add2", [](double a, double b) { return a + b; });
}
TEST(Sub2, ForwardBackwardBroadcast) {
  check_binary("Sub2", [](double a, double b) { return a - b; });
}
TEST(Mul2, ForwardBackwardBroadcast) {
  check_binary("Mul2", [](double a, double b) { return a * b; });
}
TEST(Div2, ForwardBackwardBroadcast) {
  check_binary(
      "Div2", [](double a, double b) { return a / b; }, 0.5, 2.0);
}

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
  run_op_test({"AddScalar", {{"val", 2.5}}, {random_input({3, 4}, rng)}, scalar_ref([](double x, double v) {
                 return x + v;
               })});
}
TEST(MulScalar, ForwardBackward) {
  std::mt19937 rng(5);
  run_op_test({"MulScalar", {{"val", -1.5}}, {random_input({3, 4}, rng)}, scalar_ref([](double x, double v) {
                 return x * v;
               })});
}
TEST(PowScalar, ForwardBackward) {
  std::mt19937 rng(6);
  run_op_test(
      {"PowScalar", {{"val", 2.5}}, {random_input({3, 4}, rng, 0.5, 2.0)}, scalar_ref([](double x, double v) {
         return std::pow(x, v);
       })});
}

// Outputs above 16 MiB take the non-temporal store path: odd run lengths (unaligned heads and tails) and
// both broadcast sides, checked element by element against the plain formula.
TEST(Sub2, StreamingStoresOnLargeOutputs) {
  const int64_t rows = 4099, cols = 1031;  // 4.2M elements, 16.9 MB; 1031-element runs start unaligned
  auto a = nn::Variable::create({rows, cols}), b = nn::Variable::create({1, cols}),
       c = nn::Variable::create({rows, 1});
  float* pa = a->data()->cast<float>(true);
  float* pb = b->data()->cast<float>(true);
  float* pc = c->data()->cast<float>(true);
  for (int64_t i = 0; i < rows * cols; ++i) pa[i] = float(i % 977) * 0.5f;
  for (int64_t j = 0; j < cols; ++j) pb[j] = float(j) * 0.25f;
  for (int64_t r = 0; r < rows; ++r) pc[r] = float(r % 13);
  auto y1 = nn::call1("Sub2", {a, b});
  auto y2 = nn::call1("Sub2", {c, a});
  y1->forward();
  y2->forward();
  const float* o1 = y1->data()->get<float>();
  const float* o2 = y2->data()->get<float>();
  int64_t bad = 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < cols; ++j) {
      const int64_t i = r * cols + j;
      bad += o1[i] != pa[i] - pb[j];
      bad += o2[i] != pc[r] - pa[i];
    }
  EXPECT_EQ(bad, 0);
}
