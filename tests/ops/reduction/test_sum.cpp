// Sum over chosen axes, all axes, keep_dims.
#include <gtest/gtest.h>

#include "op_tester.hpp"

using namespace nn::test;

namespace {
// Sums a (2,3,4) array over the axes set in `mask`.
RefArray sum_ref(const RefArray& x, std::vector<bool> mask, bool keep) {
  nn::Shape out;
  for (size_t d = 0; d < 3; ++d)
    if (!mask[d])
      out.push_back(x.shape[d]);
    else if (keep)
      out.push_back(1);
  RefArray y{out, std::vector<double>(size_t(ref_size(out)), 0.0)};
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t k = 0; k < 4; ++k) {
        int64_t idx[3] = {i, j, k}, o = 0;
        for (size_t d = 0; d < 3; ++d)
          if (!mask[d]) o = o * x.shape[d] + idx[d];
        y.data[size_t(o)] += x.data[size_t((i * 3 + j) * 4 + k)];
      }
  return y;
}
}  // namespace

TEST(Sum, AxesAndKeepDims) {
  std::mt19937 rng(3);
  auto x = random_input({2, 3, 4}, rng);
  run_op_test({"Sum", {{"axes", std::vector<int64_t>{1}}}, {x}, [](const RefInputs& in, const nn::Attrs&) {
                 return std::vector<RefArray>{sum_ref(in[0], {false, true, false}, false)};
               }});
  run_op_test({"Sum",
               {{"axes", std::vector<int64_t>{0, 2}}, {"keep_dims", true}},
               {x},
               [](const RefInputs& in, const nn::Attrs&) {
                 return std::vector<RefArray>{sum_ref(in[0], {true, false, true}, true)};
               }});
  run_op_test({"Sum", {}, {x}, [](const RefInputs& in, const nn::Attrs&) {
                 return std::vector<RefArray>{sum_ref(in[0], {true, true, true}, false)};
               }});
}
