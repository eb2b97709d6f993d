// Identity and Reshape.
#include <gtest/gtest.h>

#include "op_tester.hpp"

using namespace nn::test;

TEST(Identity, ForwardBackward) {
  std::mt19937 rng(1);
  run_op_test({"Identity", {}, {random_input({2, 5}, rng)}, [](const RefInputs& in, const nn::Attrs&) {
                 return std::vector<RefArray>{in[0]};
               }});
}

TEST(Reshape, ForwardBackwardWithInferredDim) {
  std::mt19937 rng(2);
  run_op_test({"Reshape",
               {{"shape", std::vector<int64_t>{4, -1}}},
               {random_input({2, 3, 4}, rng)},
               [](const RefInputs& in, const nn::Attrs&) {
                 return std::vector<RefArray>{RefArray{{4, 6}, in[0].data}};
               }});
}
