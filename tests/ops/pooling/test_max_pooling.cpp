// MaxPooling: ignore_border true/false, pad, stride, 1-D/2-D/3-D; distinct inputs keep the argmax unique.
#include <gtest/gtest.h>

#include <algorithm>

#include "pool_reference.hpp"

using namespace nn::test;
using namespace nn::test::pool_ref;
using V = std::vector<int64_t>;

namespace {
// Distinct values (a shuffled ramp) spaced 0.05 apart: the max of every window moves by less than the
// numeric-gradient step cannot reorder, so the argmax is unambiguous.
RefArray distinct_input(const nn::Shape& shape, uint32_t seed) {
  std::mt19937 rng(seed);
  RefArray a{shape, std::vector<double>(size_t(ref_size(shape)))};
  for (size_t i = 0; i < a.data.size(); ++i) a.data[i] = -1.0 + 0.05 * double(i);
  std::shuffle(a.data.begin(), a.data.end(), rng);
  return a;
}
void run_max(const PoolSpec& s, const nn::Shape& x, uint32_t seed) {
  run_op_test(
      {"MaxPooling", pool_attrs(s, false), {distinct_input(x, seed)}, [s](const RefInputs& in, const nn::Attrs&) {
         return std::vector<RefArray>{pool(in[0], s, Mode::kMax)};
       }});
}
}  // namespace

TEST(MaxPooling, KernelStrideDefaults) {
  run_max({V{2, 2}}, {2, 2, 4, 4}, 1);
  run_max({V{2, 2}, V{1, 1}}, {1, 2, 4, 5}, 2);
}

TEST(MaxPooling, IgnoreBorderFalse) {
  run_max({V{2, 2}, {}, {}, false}, {1, 2, 5, 5}, 3);
  run_max({V{3, 2}, V{2, 3}, {}, false}, {2, 1, 6, 7}, 4);
}

TEST(MaxPooling, Pad) {
  run_max({V{3, 3}, V{2, 2}, V{1, 1}, true}, {1, 2, 5, 5}, 5);
  run_max({V{2, 3}, V{2, 2}, V{1, 1}, false}, {1, 2, 4, 5}, 6);
}

TEST(MaxPooling, OneDAndThreeD) {
  run_max({V{3}, V{2}, V{1}, false}, {2, 3, 7}, 7);
  run_max({V{2, 2, 2}, {}, {}, true}, {1, 2, 4, 4, 3}, 8);
}
