// AdaptiveSeparableConvolution: per-pixel vertical x horizontal kernels, kernel maps of output or input size.
#include <gtest/gtest.h>

#include "op_tester.hpp"

using namespace nn::test;

namespace {
std::vector<RefArray> asc_ref(const RefInputs& in, const nn::Attrs&) {
  const auto &x = in[0], &kv = in[1], &kh = in[2];
  const int64_t B = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
  const int64_t Kv = kv.shape[1], Kh = kh.shape[1], oH = H - Kv + 1, oW = W - Kh + 1;
  auto at4 = [](const RefArray& a, int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
    return a.data[size_t(((i0 * a.shape[1] + i1) * a.shape[2] + i2) * a.shape[3] + i3)];
  };
  RefArray y{{B, C, oH, oW}, {}};
  for (int64_t b = 0; b < B; ++b)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t h = 0; h < oH; ++h)
        for (int64_t w = 0; w < oW; ++w) {
          double s = 0;
          for (int64_t j = 0; j < Kv; ++j)
            for (int64_t i = 0; i < Kh; ++i)
              s += at4(kv, b, j, h, w) * at4(kh, b, i, h, w) * at4(x, b, c, h + j, w + i);
          y.data.push_back(s);
        }
  return {y};
}
}  // namespace

TEST(AdaptiveSeparableConvolution, OutputSizedKernels) {
  std::mt19937 rng(31);
  auto x = random_input({2, 2, 5, 6}, rng);
  run_op_test({"AdaptiveSeparableConvolution",
               {},
               {x, random_input({2, 3, 3, 3}, rng), random_input({2, 4, 3, 3}, rng)},
               asc_ref});
}

TEST(AdaptiveSeparableConvolution, InputSizedKernels) {
  std::mt19937 rng(32);
  auto x = random_input({1, 3, 4, 4}, rng);
  run_op_test({"AdaptiveSeparableConvolution",
               {},
               {x, random_input({1, 2, 4, 4}, rng), random_input({1, 2, 4, 4}, rng)},
               asc_ref});
}

TEST(AdaptiveSeparableConvolution, RejectsBadShapes) {
  std::mt19937 rng(33);
  auto x = random_input({1, 1, 4, 4}, rng);
  EXPECT_ANY_THROW(run_op_test({"AdaptiveSeparableConvolution",
                                {},
                                {x, random_input({2, 2, 3, 3}, rng), random_input({1, 2, 3, 3}, rng)},
                                asc_ref}));
  EXPECT_ANY_THROW(run_op_test({"AdaptiveSeparableConvolution",
                                {},
                                {x, random_input({1, 5, 3, 3}, rng), random_input({1, 2, 3, 3}, rng)},
                                asc_ref}));
}
