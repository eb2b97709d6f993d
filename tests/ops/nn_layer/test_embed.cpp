// Embed: row lookup by integer index; gradient to W only (indices repeat so rows accumulate).
#include <gtest/gtest.h>

#include "op_tester.hpp"

using namespace nn::test;

TEST(Embed, LookupAndGradient) {
  std::mt19937 rng(5);
  RefArray x{{2, 3}, {0, 3, 1, 3, 3, 2}};
  auto w = random_input({4, 2, 3}, rng);
  OpTestCase tc{"Embed", {}, {x, w}, [](const RefInputs& in, const nn::Attrs&) {
                  const int64_t row = 6;
                  RefArray y{{2, 3, 2, 3}, std::vector<double>(36)};
                  for (size_t i = 0; i < 6; ++i)
                    for (int64_t j = 0; j < row; ++j)
                      y.data[i * row + size_t(j)] = in[1].data[size_t(int64_t(in[0].data[i]) * row + j)];
                  return std::vector<RefArray>{y};
                }};
  tc.check_grad = {false, true};
  run_op_test(tc);
}
