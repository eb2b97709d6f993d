// Elementwise activations (ReLU ... Mish) against double-precision references.
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"

using namespace nn::test;

namespace {
using UnaryRef = double (*)(double, const nn::Attrs&);
Reference unary_ref(UnaryRef f) {
  return [f](const RefInputs& in, const nn::Attrs& a) {
    RefArray y = in[0];
    for (auto& v : y.data) v = f(v, a);
    return std::vector<RefArray>{y};
  };
}
double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double softplus(double x) { return std::log1p(std::exp(x)); }

// Runs the op on a (3, 4, 5) input in [lo, hi) kept off the kinks.
void check(const char* op, UnaryRef f, nn::Attrs attrs = {}, double lo = -3, double hi = 3,
           std::vector<double> kinks = {}) {
  std::mt19937 rng(11);
  run_op_test({op, attrs, {random_input({3, 4, 5}, rng, lo, hi, kinks)}, unary_ref(f)});
}
}  // namespace

TEST(ReLU, ForwardBackward) {
  check("ReLU", [](double x, const nn::Attrs&) { return std::max(x, 0.0); }, {}, -3, 3, {0});
}
TEST(LeakyReLU, DefaultAndAlpha) {
  auto f = [](double x, const nn::Attrs& a) { return x > 0 ? x : a.get_float("alpha", 0.1) * x; };
  check("LeakyReLU", f, {}, -3, 3, {0});
  check("LeakyReLU", f, {{"alpha", 0.3}}, -3, 3, {0});
}
TEST(ELU, ForwardBackward) {
  auto f = [](double x, const nn::Attrs& a) { return x >= 0 ? x : a.get_float("alpha", 1.0) * (std::exp(x) - 1); };
  check("ELU", f, {}, -3, 3, {0});
  check("ELU", f, {{"alpha", 0.5}}, -3, 3, {0});
}
TEST(SELU, ForwardBackward) {
  auto f = [](double x, const nn::Attrs&) {
    const double scale = 1.05070098735548, alpha = 1.673263242354377;
    return scale * (x > 0 ? x : alpha * (std::exp(x) - 1));
  };
  check("SELU", f, {}, -3, 3, {0});
}
TEST(ReLU6, ForwardBackward) {
  check("ReLU6", [](double x, const nn::Attrs&) { return std::min(std::max(x, 0.0), 6.0); }, {}, -2, 8, {0, 6});
}
TEST(HardSigmoid, ForwardBackward) {
  check("HardSigmoid", [](double x, const nn::Attrs&) { return std::min(std::max(0.2 * x + 0.5, 0.0), 1.0); }, {},
        -4, 4, {-2.5, 2.5});
}
TEST(HardTanh, ForwardBackward) {
  check("HardTanh", [](double x, const nn::Attrs&) { return std::min(std::max(x, -1.0), 1.0); }, {}, -2, 2,
        {-1, 1});
}
TEST(Sigmoid, ForwardBackward) {
  check("Sigmoid", [](double x, const nn::Attrs&) { return sigmoid(x); });
}
TEST(Tanh, ForwardBackward) {
  check("Tanh", [](double x, const nn::Attrs&) { return std::tanh(x); });
}
TEST(Swish, ForwardBackward) {
  check("Swish", [](double x, const nn::Attrs&) { return x * sigmoid(x); });
}
TEST(GELU, ForwardBackward) {
  check("GELU", [](double x, const nn::Attrs&) {
    return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
  });
}
TEST(SoftPlus, DefaultAndBeta) {
  auto f = [](double x, const nn::Attrs& a) {
    double b = a.get_float("beta", 1.0);
    return softplus(b * x) / b;
  };
  check("SoftPlus", f);
  check("SoftPlus", f, {{"beta", 2.5}});
}
TEST(SoftPlus, LargeInputsDoNotOverflow) {
  std::mt19937 rng(1);
  run_op_test({"SoftPlus", {}, {random_input({2, 5}, rng, 80, 100)}, unary_ref([](double x, const nn::Attrs&) {
                 return x + std::log1p(std::exp(-x));
               })});
}
TEST(SoftSign, ForwardBackward) {
  check("SoftSign", [](double x, const nn::Attrs&) { return x / (1 + std::fabs(x)); }, {}, -3, 3, {0});
}
TEST(LogSigmoid, ForwardBackward) {
  check(
      "LogSigmoid", [](double x, const nn::Attrs&) { return std::log(sigmoid(x)); }, {}, -6, 6);
}
TEST(TanhShrink, ForwardBackward) {
  check("TanhShrink", [](double x, const nn::Attrs&) { return x - std::tanh(x); });
}
TEST(Sinc, ForwardBackward) {
  check(
      "Sinc", [](double x, const nn::Attrs&) { return x == 0 ? 1.0 : std::sin(x) / x; }, {}, -6, 6);
}
TEST(Sinc, ValueAtZeroIsOne) {
  run_op_test({"Sinc", {}, {RefArray{{3}, {0.0, 1e-4, -1e-3}}}, unary_ref([](double x, const nn::Attrs&) {
                 return x == 0 ? 1.0 : std::sin(x) / x;
               })});
}
TEST(Mish, ForwardBackward) {
  check("Mish", [](double x, const nn::Attrs&) { return x * std::tanh(softplus(x)); });
}
