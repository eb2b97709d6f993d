// EyeLike against a double reference, for diagonals inside and outside the array.
#include <gtest/gtest.h>

#include "op_tester.hpp"

using namespace nn::test;

TEST(EyeLike, Diagonals) {
  for (int64_t k : {-2, 0, 1, 5}) {
    Reference ref = [k](const RefInputs& in, const nn::Attrs&) {
      RefArray y{in[0].shape, {}};
      for (int64_t i = 0; i < in[0].shape[0]; ++i)
        for (int64_t j = 0; j < in[0].shape[1]; ++j) y.data.push_back(j - i == k ? 1.0 : 0.0);
      return std::vector<RefArray>{y};
    };
    std::mt19937 rng(3);
    run_op_test({"EyeLike", {{"k", k}}, {random_input({3, 4}, rng)}, ref});
  }
}
