// INQAffine: given indicators, all fixed at the last inq iteration, largest_abs
// selection of half the learnable weights; x and bias gradients (the weight
// gradient is straight-through, as upstream).
#include <gtest/gtest.h>

#include "conv_reference.hpp"
#include "inq_reference.hpp"

using namespace nn::test;

namespace {
void run(const nn::Shape& x, const nn::Shape& w, bool bias, nn::Attrs a, bool zero_indicators, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<RefArray> in{random_input(x, rng), random_input(w, rng), random_labels(w, rng, 2)};
  if (zero_indicators) std::fill(in[2].data.begin(), in[2].data.end(), 0.0);
  if (bias) in.push_back(random_input(nn::Shape(w.begin() + 1, w.end()), rng));
  OpTestCase tc{"INQAffine", a, in, [](const RefInputs& v, const nn::Attrs& at) {
                  RefArray wq{v[1].shape, inq_ref::quantized_weights(v[1].data, v[2].data, at)};
                  return std::vector<RefArray>{
                      conv_ref::affine(v[0], wq, v.size() > 3 ? &v[3] : nullptr, at.get_int("base_axis", 1))};
                }};
  tc.check_grad = {true, false, false, true};
  run_op_test(tc);
}
}  // namespace

TEST(INQAffine, GivenIndicators) {
  run({3, 4}, {4, 5}, true, {}, false, 1);
  run({2, 2, 3}, {6, 2, 2}, false, {{"num_bits", int64_t(3)}}, false, 2);
}

TEST(INQAffine, LastIterationFixesAll) {
  run({3, 4}, {4, 3}, true, {{"inq_iterations", std::vector<int64_t>{0}}}, true, 3);
  run({2, 3, 2}, {2, 4}, true, {{"base_axis", int64_t(2)}, {"inq_iterations", std::vector<int64_t>{0}}}, false, 4);
}

TEST(INQAffine, LargestAbsFixesHalf) {
  run({3, 4}, {4, 5}, true, {{"inq_iterations", std::vector<int64_t>{0, 4}}}, true, 5);
  run({3, 4}, {4, 5}, false, {{"inq_iterations", std::vector<int64_t>{0, 4}}, {"num_bits", int64_t(5)}}, false, 6);
}
