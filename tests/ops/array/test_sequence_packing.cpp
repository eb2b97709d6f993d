// PackPaddedSequence and PadPackedSequence against double references, time-major and batch-first.
#include <gtest/gtest.h>

#include "array_ref.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {

// Packed rows: for t, for b with lengths[b] > t, padded[t, b] (or [b, t] batch-first).
std::vector<RefArray> pack_reference(const RefInputs& in, const nn::Attrs& a) {
  const bool bf = a.get_bool("batch_first", false);
  const auto& ps = in[0].shape;
  const int64_t steps = bf ? ps[1] : ps[0], batch = bf ? ps[0] : ps[1];
  const int64_t row = ref_size(nn::Shape(ps.begin() + 2, ps.end()));
  RefArray packed{{0}, {}}, sizes{{steps}, {}};
  int64_t n = 0;
  for (int64_t t = 0; t < steps; ++t) {
    int64_t count = 0;
    for (int64_t b = 0; b < batch; ++b)
      if (in[1].data[b] > t) {
        ++count;
        ++n;
        const int64_t p = bf ? b * steps + t : t * batch + b;
        for (int64_t j = 0; j < row; ++j) packed.data.push_back(in[0].data[p * row + j]);
      }
    sizes.data.push_back(double(count));
  }
  packed.shape = {n};
  packed.shape.insert(packed.shape.end(), ps.begin() + 2, ps.end());
  return {packed, sizes};
}

std::vector<RefArray> pad_reference(const RefInputs& in, const nn::Attrs& a) {
  const bool bf = a.get_bool("batch_first", false);
  const auto& ks = in[0].shape;
  const int64_t steps = std::max<int64_t>(int64_t(in[1].data.size()), a.get_int("total_length", -1));
  const int64_t batch = int64_t(in[1].data[0]), row = ref_size(nn::Shape(ks.begin() + 1, ks.end()));
  nn::Shape shape = bf ? nn::Shape{batch, steps} : nn::Shape{steps, batch};
  shape.insert(shape.end(), ks.begin() + 1, ks.end());
  RefArray padded{shape, std::vector<double>(size_t(ref_size(shape)), a.get_float("padding_value", 0.0))};
  RefArray lengths{{batch}, std::vector<double>(size_t(batch), 0.0)};
  int64_t k = 0;
  for (size_t t = 0; t < in[1].data.size(); ++t)
    for (int64_t b = 0; b < int64_t(in[1].data[t]); ++b, ++k) {
      const int64_t p = bf ? b * steps + int64_t(t) : int64_t(t) * batch + b;
      for (int64_t j = 0; j < row; ++j) padded.data[p * row + j] = in[0].data[k * row + j];
      lengths.data[b] += 1;
    }
  return {padded, lengths};
}

}  // namespace

TEST(PackPaddedSequence, TimeMajorAndBatchFirst) {
  std::mt19937 rng(1);
  OpTestCase tc{
      "PackPaddedSequence", {}, {random_input({4, 3, 2}, rng), RefArray{{3}, {4, 2, 1}}}, pack_reference};
  tc.check_grad = {true, false};
  run_op_test(tc);
  OpTestCase bf{"PackPaddedSequence",
                {{"batch_first", true}},
                {random_input({3, 5}, rng), RefArray{{3}, {3, 3, 0}}},
                pack_reference};
  bf.check_grad = {true, false};
  run_op_test(bf);
  EXPECT_THROW(
      run_op_test(
          {"PackPaddedSequence", {}, {random_input({4, 3}, rng), RefArray{{3}, {1, 2, 1}}}, pack_reference}),
      nn::Error);
}

TEST(PadPackedSequence, PaddingValueAndTotalLength) {
  std::mt19937 rng(2);
  OpTestCase tc{"PadPackedSequence",
                {{"padding_value", -1.0}},
                {random_input({7, 2}, rng), RefArray{{4}, {3, 2, 1, 1}}},
                pad_reference};
  tc.check_grad = {true, false};
  run_op_test(tc);
  OpTestCase bf{"PadPackedSequence",
                {{"batch_first", true}, {"total_length", int64_t(5)}},
                {random_input({5}, rng), RefArray{{3}, {2, 2, 1}}},
                pad_reference};
  bf.check_grad = {true, false};
  run_op_test(bf);
}
