// Sin and Cos against std::sin/std::cos in double.
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"

using namespace nn::test;

namespace {
Reference unary_ref(double (*f)(double)) {
  return [f](const RefInputs& in, const nn::Attrs&) {
    RefArray y{in[0].shape, in[0].data};
    for (auto& v : y.data) v = f(v);
    return std::vector<RefArray>{y};
  };
}
}  // namespace

TEST(Sin, ForwardBackward) {
  std::mt19937 rng(1);
  run_op_test({"Sin", {}, {random_input({2, 3, 4}, rng, -3, 3)}, unary_ref([](double x) { return std::sin(x); })});
}

TEST(Cos, ForwardBackward) {
  std::mt19937 rng(2);
  run_op_test({"Cos", {}, {random_input({5, 7}, rng, -3, 3)}, unary_ref([](double x) { return std::cos(x); })});
}
