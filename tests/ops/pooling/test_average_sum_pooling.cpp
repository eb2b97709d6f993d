// AveragePooling (including_pad true/false) and SumPooling: ignore_border, pad, stride.
#include <gtest/gtest.h>

#include "pool_reference.hpp"

using namespace nn::test;
using namespace nn::test::pool_ref;
using V = std::vector<int64_t>;

namespace {
void run_pool(const char* type, Mode mode, const PoolSpec& s, const nn::Shape& x, uint32_t seed) {
  std::mt19937 rng(seed);
  run_op_test(
      {type,
       pool_attrs(s, mode == Mode::kAverage),
       {random_input(x, rng)},
       [s, mode](const RefInputs& in, const nn::Attrs&) { return std::vector<RefArray>{pool(in[0], s, mode)}; }});
}
}  // namespace

TEST(AveragePooling, Basic) {
  run_pool("AveragePooling", Mode::kAverage, {V{2, 2}}, {2, 3, 4, 4}, 1);
  run_pool("AveragePooling", Mode::kAverage, {V{3, 2}, V{1, 2}}, {1, 2, 5, 6}, 2);
}

TEST(AveragePooling, PadIncludingPadAndIgnoreBorder) {
  for (bool inc : {true, false})
    for (bool ib : {true, false}) {
      run_pool("AveragePooling", Mode::kAverage, {V{3, 3}, V{2, 2}, V{1, 1}, ib, inc}, {1, 2, 6, 5}, 3);
      run_pool("AveragePooling", Mode::kAverage, {V{2, 2}, V{2, 2}, V{1, 0}, ib, inc}, {2, 1, 5, 5}, 4);
    }
}

TEST(AveragePooling, OneDAndThreeD) {
  run_pool("AveragePooling", Mode::kAverage, {V{3}, V{2}, V{1}, false, false}, {2, 2, 6}, 5);
  run_pool("AveragePooling", Mode::kAverage, {V{2, 2, 2}, V{1, 2, 2}, V{1, 0, 1}, true, true}, {1, 2, 3, 4, 3}, 6);
}

TEST(SumPooling, BorderAndPad) {
  run_pool("SumPooling", Mode::kSum, {V{2, 2}}, {2, 2, 4, 4}, 7);
  run_pool("SumPooling", Mode::kSum, {V{2, 3}, V{2, 2}, {}, false}, {1, 2, 5, 6}, 8);
  run_pool("SumPooling", Mode::kSum, {V{3, 3}, V{2, 1}, V{1, 1}, true}, {1, 2, 5, 4}, 9);
}
