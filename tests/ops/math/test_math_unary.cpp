// Exp, Log, Abs, Erf, hyperbolic and inverse trigonometric functions, ATan2; straight-through
// Sign/Round/Ceil/Floor.
#include <gtest/gtest.h>

#include <cmath>

#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {
Reference unary(double (*f)(double)) {
  return [f](const RefInputs& in, const nn::Attrs&) {
    RefArray y = in[0];
    for (auto& v : y.data) v = f(v);
    return std::vector<RefArray>{y};
  };
}
void check(const char* op, double (*f)(double), double lo, double hi, std::vector<double> kinks = {}) {
  std::mt19937 rng(31);
  run_op_test({op, {}, {random_input({3, 4, 5}, rng, lo, hi, kinks)}, unary(f)});
}
}  // namespace

TEST(Exp, ForwardBackward) {
  check(
      "Exp", [](double x) { return std::exp(x); }, -3, 3);
}
TEST(Log, ForwardBackward) {
  check(
      "Log", [](double x) { return std::log(x); }, 0.2, 5);
}
TEST(Abs, ForwardBackward) {
  check("Abs", [](double x) { return std::fabs(x); }, -3, 3, {0});
}
TEST(Erf, ForwardBackward) {
  check(
      "Erf", [](double x) { return std::erf(x); }, -2.5, 2.5);
}
TEST(Tan, ForwardBackward) {
  check(
      "Tan", [](double x) { return std::tan(x); }, -1.2, 1.2);
}
TEST(Sinh, ForwardBackward) {
  check(
      "Sinh", [](double x) { return std::sinh(x); }, -3, 3);
}
TEST(Cosh, ForwardBackward) {
  check(
      "Cosh", [](double x) { return std::cosh(x); }, -3, 3);
}
TEST(ASin, ForwardBackward) {
  check(
      "ASin", [](double x) { return std::asin(x); }, -0.9, 0.9);
}
TEST(ACos, ForwardBackward) {
  check(
      "ACos", [](double x) { return std::acos(x); }, -0.9, 0.9);
}
TEST(ATan, ForwardBackward) {
  check(
      "ATan", [](double x) { return std::atan(x); }, -3, 3);
}
TEST(ASinh, ForwardBackward) {
  check(
      "ASinh", [](double x) { return std::asinh(x); }, -3, 3);
}
TEST(ACosh, ForwardBackward) {
  check(
      "ACosh", [](double x) { return std::acosh(x); }, 1.2, 4);
}
TEST(ATanh, ForwardBackward) {
  check(
      "ATanh", [](double x) { return std::atanh(x); }, -0.9, 0.9);
}
TEST(ATan2, ForwardBackward) {
  std::mt19937 rng(32);
  run_op_test({"ATan2",
               {},
               {random_input({3, 4}, rng, -2, 2), random_input({3, 4}, rng, 0.3, 2)},
               [](const RefInputs& in, const nn::Attrs&) {
                 RefArray y = in[0];
                 for (size_t i = 0; i < y.data.size(); ++i) y.data[i] = std::atan2(in[0].data[i], in[1].data[i]);
                 return std::vector<RefArray>{y};
               }});
}

namespace {
// Forward against f; backward must pass the output gradient through unchanged (upstream's STE).
void check_straight_through(const char* op, nn::Attrs attrs, const std::vector<double>& xs,
                            double (*f)(double, double), double alpha) {
  SCOPED_TRACE(op);
  run_op_test({op,
               attrs,
               {RefArray{{int64_t(xs.size())}, xs}},
               [f, alpha](const RefInputs& in, const nn::Attrs&) {
                 RefArray y = in[0];
                 for (auto& v : y.data) v = f(v, alpha);
                 return std::vector<RefArray>{y};
               },
               1e-5,
               1e-4,
               2e-3,
               2e-3,
               1e-3,
               {},
               /*check_backward=*/false});
  auto fn = nn::OpRegistry::instance().create(op, attrs, nn::cpu_context());
  auto x = nn::Variable::create({int64_t(xs.size())}, true);
  auto y = nn::Variable::create();
  float* px = x->data()->cast<float>(true);
  for (size_t i = 0; i < xs.size(); ++i) px[i] = float(xs[i]);
  fn->setup({x.get()}, {y.get()});
  fn->forward({x.get()}, {y.get()});
  float* gy = y->grad()->cast<float>(true);
  for (size_t i = 0; i < xs.size(); ++i) gy[i] = float(i) - 2.5f;
  fn->backward({x.get()}, {y.get()}, {true}, {false});
  auto gx = x->grad()->to_vector();
  for (size_t i = 0; i < xs.size(); ++i) EXPECT_EQ(gx[i], float(i) - 2.5f) << "element " << i;
}
const std::vector<double> kSamples = {-1.7, -0.5, 0.0, 0.4, 2.6, 3.5};
}  // namespace

TEST(Sign, ForwardAndStraightThrough) {
  auto f = [](double x, double alpha) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : alpha); };
  check_straight_through("Sign", {}, kSamples, f, 1.0);
  check_straight_through("Sign", {{"alpha", 0.0}}, kSamples, f, 0.0);
}
TEST(Round, ForwardAndStraightThrough) {
  check_straight_through(
      "Round", {}, kSamples, [](double x, double) { return std::round(x); }, 0);
}
TEST(Ceil, ForwardAndStraightThrough) {
  check_straight_through(
      "Ceil", {}, kSamples, [](double x, double) { return std::ceil(x); }, 0);
}
TEST(Floor, ForwardAndStraightThrough) {
  check_straight_through(
      "Floor", {}, kSamples, [](double x, double) { return std::floor(x); }, 0);
}
