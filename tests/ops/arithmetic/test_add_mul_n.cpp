// AddN and MulN over three inputs, BcAdd2 with broadcasting on either side.
#include <gtest/gtest.h>

#include "op_tester.hpp"
#include "ref_broadcast.hpp"

using namespace nn::test;

namespace {
std::vector<RefArray> fold_ref(const RefInputs& in, bool product) {
  RefArray y{in[0].shape, std::vector<double>(in[0].data.size(), product ? 1.0 : 0.0)};
  for (const auto& x : in)
    for (size_t i = 0; i < x.data.size(); ++i) y.data[i] = product ? y.data[i] * x.data[i] : y.data[i] + x.data[i];
  return {y};
}
}  // namespace

TEST(AddN, ThreeInputs) {
  std::mt19937 rng(1);
  RefInputs xs{random_input({2, 3}, rng), random_input({2, 3}, rng), random_input({2, 3}, rng)};
  run_op_test({"AddN", {}, xs, [](const RefInputs& in, const nn::Attrs&) { return fold_ref(in, false); }});
}

TEST(AddN, RejectsShapeMismatch) {
  std::mt19937 rng(1);
  RefInputs xs{random_input({2, 3}, rng), random_input({3, 2}, rng)};
  EXPECT_ANY_THROW(
      run_op_test({"AddN", {}, xs, [](const RefInputs& in, const nn::Attrs&) { return fold_ref(in, false); }}));
}

TEST(MulN, ThreeInputs) {
  std::mt19937 rng(2);
  RefInputs xs{random_input({2, 3}, rng), random_input({2, 3}, rng), random_input({2, 3}, rng)};
  run_op_test({"MulN", {}, xs, [](const RefInputs& in, const nn::Attrs&) { return fold_ref(in, true); }});
}

TEST(BcAdd2, Broadcasting) {
  std::mt19937 rng(3);
  auto ref = [](const RefInputs& in, const nn::Attrs&) {
    return std::vector<RefArray>{broadcast_ref(in[0], in[1], [](double a, double b) { return a + b; })};
  };
  run_op_test({"BcAdd2", {}, {random_input({2, 3, 4}, rng), random_input({3, 1}, rng)}, ref});
  run_op_test({"BcAdd2", {}, {random_input({1, 4}, rng), random_input({3, 1}, rng)}, ref});
}
