// ReduceSum and ReduceMean: every element into a 0-d output.
#include <gtest/gtest.h>

#include "op_tester.hpp"

using namespace nn::test;

namespace {
nn::test::Reference whole_array_ref(bool mean) {
  return [mean](const RefInputs& in, const nn::Attrs&) {
    double s = 0;
    for (double v : in[0].data) s += v;
    if (mean) s /= double(in[0].data.size());
    return std::vector<RefArray>{RefArray{{}, {s}}};
  };
}
}  // namespace

TEST(ReduceSum, WholeArray) {
  std::mt19937 rng(4);
  run_op_test({"ReduceSum", {}, {random_input({2, 3, 4}, rng)}, whole_array_ref(false)});
  run_op_test({"ReduceSum", {}, {random_input({5}, rng)}, whole_array_ref(false)});
}

TEST(ReduceMean, WholeArray) {
  std::mt19937 rng(5);
  run_op_test({"ReduceMean", {}, {random_input({2, 3, 4}, rng)}, whole_array_ref(true)});
  run_op_test({"ReduceMean", {}, {random_input({3, 1}, rng)}, whole_array_ref(true)});
}
