// TopNError and BinaryError: forward only, against double references.
#include <gtest/gtest.h>

#include "op_tester.hpp"

using namespace nn::test;

TEST(TopNError, AxesAndN) {
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    const RefArray& x = in[0];
    const int nd = int(x.shape.size());
    int axis = int(a.get_int("axis", nd - 1));
    int64_t n = a.get_int("n", 1), outer = 1, c = x.shape[size_t(axis)], inner = 1;
    for (int d = 0; d < axis; ++d) outer *= x.shape[size_t(d)];
    for (int d = axis + 1; d < nd; ++d) inner *= x.shape[size_t(d)];
    RefArray y = in[1];
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t j = 0; j < inner; ++j) {
        int64_t t = int64_t(in[1].data[size_t(o * inner + j)]);
        double th = x.data[size_t((o * c + t) * inner + j)];
        int64_t greater_or_equal = 0;
        for (int64_t k = 0; k < c; ++k) greater_or_equal += x.data[size_t((o * c + k) * inner + j)] >= th;
        y.data[size_t(o * inner + j)] = greater_or_equal > n ? 1.0 : 0.0;
      }
    return std::vector<RefArray>{y};
  };
  std::mt19937 rng(71);
  for (int64_t n : {1, 2, 3}) {
    OpTestCase tc{"TopNError", {{"n", n}}, {random_input({6, 5}, rng), random_labels({6, 1}, rng, 5)}, ref};
    tc.check_backward = false;
    run_op_test(tc);
  }
  OpTestCase ax{
      "TopNError", {{"axis", int64_t(1)}}, {random_input({2, 4, 3}, rng), random_labels({2, 1, 3}, rng, 4)}, ref};
  ax.check_backward = false;
  run_op_test(ax);
}

TEST(BinaryError, Forward) {
  std::mt19937 rng(72);
  OpTestCase tc{"BinaryError",
                {},
                {random_input({4, 5}, rng, 0, 1, {0.5}), random_labels({4, 5}, rng, 2)},
                [](const RefInputs& in, const nn::Attrs&) {
                  RefArray y = in[0];
                  for (size_t i = 0; i < y.data.size(); ++i)
                    y.data[i] = (in[0].data[i] >= 0.5) != (in[1].data[i] >= 0.5) ? 1.0 : 0.0;
                  return std::vector<RefArray>{y};
                }};
  tc.check_backward = false;
  run_op_test(tc);
}
