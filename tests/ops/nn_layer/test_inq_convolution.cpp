// INQConvolution: given indicators, all fixed, largest_abs selection, with
// pad/stride/group; x and bias gradients (the weight gradient is
// straight-through, as upstream).
#include <gtest/gtest.h>

#include "conv_reference.hpp"
#include "inq_reference.hpp"

using namespace nn::test;
using V = std::vector<int64_t>;

namespace {
void run(const nn::Shape& x, const nn::Shape& w, bool bias, nn::Attrs a, conv_ref::ConvSpec spec,
         bool zero_indicators, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<RefArray> in{random_input(x, rng), random_input(w, rng), random_labels(w, rng, 2)};
  if (zero_indicators) std::fill(in[2].data.begin(), in[2].data.end(), 0.0);
  if (bias) in.push_back(random_input({w[0]}, rng));
  if (!spec.pad.empty()) a.set("pad", spec.pad);
  if (!spec.stride.empty()) a.set("stride", spec.stride);
  a.set("group", spec.group);
  OpTestCase tc{
      "INQConvolution", a, in, [spec](const RefInputs& v, const nn::Attrs& at) {
        RefArray wq{v[1].shape, inq_ref::quantized_weights(v[1].data, v[2].data, at)};
        return std::vector<RefArray>{conv_ref::convolution(v[0], wq, v.size() > 3 ? &v[3] : nullptr, spec)};
      }};
  tc.check_grad = {true, false, false, true};
  run_op_test(tc);
}
}  // namespace

TEST(INQConvolution, GivenIndicators) {
  run({2, 2, 4, 4}, {3, 2, 2, 2}, true, {}, {}, false, 1);
  run({1, 4, 5, 4}, {4, 2, 3, 3}, false, {{"num_bits", int64_t(3)}}, {1, V{1, 1}, V{2, 1}, {}, 2}, false, 2);
}

TEST(INQConvolution, LastIterationFixesAll) {
  run({2, 2, 4, 4}, {3, 2, 2, 2}, true, {{"inq_iterations", V{0}}}, {1, V{1, 0}, {}, {}, 1}, true, 3);
}

TEST(INQConvolution, LargestAbsFixesHalf) {
  run({2, 2, 4, 4}, {3, 2, 2, 2}, true, {{"inq_iterations", V{0, 7}}}, {}, true, 4);
}
