// FusedBatchNormalization, SyncBatchNormalization, NormNormalization, WeightNormalization against double
// references.
#include <gtest/gtest.h>

#include <cmath>

#include "nn/ops/process_group.hpp"
#include "norm_ref.hpp"
#include "op_tester.hpp"

using namespace nn::test;
using Ints = std::vector<int64_t>;

namespace {

// Batch-statistics (or running-statistics) BN of (N, C, L) inputs x, beta, gamma, mean, variance.
RefArray bn_ref(const RefInputs& in, const nn::Attrs& a) {
  const double eps = a.get_float("eps", 1e-5);
  if (a.get_bool("batch_stat", true))
    return standardize_ref(
               in[0], [](const std::vector<int64_t>& i) { return i[1]; }, eps, &in[1], &in[2])
        .y;
  RefArray y = in[0];
  for (int64_t i = 0; i < ref_size(y.shape); ++i) {
    const auto idx = norm_unravel(i, y.shape);
    const int64_t c = idx[1];
    y.data[i] = (in[0].data[i] - in[3].data[c]) / std::sqrt(in[4].data[c] + eps) * in[2].data[c] + in[1].data[c];
  }
  return y;
}

std::vector<RefArray> bn_inputs(std::mt19937& rng) {
  return {random_input({3, 2, 4}, rng, -2.0, 2.0), random_input({1, 2, 1}, rng),
          random_input({1, 2, 1}, rng, 0.5, 1.5), random_input({1, 2, 1}, rng),
          random_input({1, 2, 1}, rng, 0.5, 1.5)};
}

Reference fused_ref() {
  return [](const RefInputs& in, const nn::Attrs& a) {
    RefArray y = bn_ref(in, a);
    for (size_t i = 0; i < y.data.size(); ++i)
      y.data[i] = std::max(0.0, y.data[i] + (in.size() == 6 ? in[5].data[i] : 0.0));
    return std::vector<RefArray>{y};
  };
}

}  // namespace

TEST(FusedBatchNormalization, WithAndWithoutResidual) {
  std::mt19937 rng(1);
  run_op_test({"FusedBatchNormalization", {}, bn_inputs(rng), fused_ref()});
  auto inputs = bn_inputs(rng);
  inputs.push_back(random_input({3, 2, 4}, rng));
  run_op_test({"FusedBatchNormalization", {}, inputs, fused_ref()});
  run_op_test({"FusedBatchNormalization", {{"batch_stat", false}}, inputs, fused_ref()});
}

TEST(FusedBatchNormalization, RejectsOtherNonlinearity) {
  std::mt19937 rng(2);
  EXPECT_THROW(
      run_op_test(
          {"FusedBatchNormalization", {{"nonlinearity", std::string("tanh")}}, bn_inputs(rng), fused_ref()}),
      nn::Error);
}

TEST(SyncBatchNormalization, SingleProcessIsBatchNormalization) {
  std::mt19937 rng(3);
  auto ref = [](const RefInputs& in, const nn::Attrs& a) { return std::vector<RefArray>{bn_ref(in, a)}; };
  run_op_test({"SyncBatchNormalization", {{"group", std::string("world")}}, bn_inputs(rng), ref});
  run_op_test({"SyncBatchNormalization", {{"batch_stat", false}, {"eps", 1e-3}}, bn_inputs(rng), ref});
}

// Two processes with the same batch: the all-reduced statistics are this batch's, so the synchronized
// forward and backward (through the registered sum, as data-parallel training registers it) equal BN's.
TEST(SyncBatchNormalization, RegisteredAllReduceSumIsUsed) {
  std::mt19937 rng(5);
  int calls = 0;
  nn::ops::set_process_all_reduce_sum([&calls](double* data, size_t n) {
    ++calls;
    for (size_t i = 0; i < n; ++i) data[i] *= 2;
  });
  struct Unregister {
    ~Unregister() { nn::ops::set_process_all_reduce_sum(nullptr); }
  } unregister;
  auto ref = [](const RefInputs& in, const nn::Attrs& a) { return std::vector<RefArray>{bn_ref(in, a)}; };
  run_op_test({"SyncBatchNormalization", {}, bn_inputs(rng), ref});
  EXPECT_GT(calls, 0);
  EXPECT_THROW(run_op_test({"SyncBatchNormalization", {{"group", std::string("node")}}, bn_inputs(rng), ref}),
               nn::Error);
}

TEST(NormNormalization, ForwardBackward) {
  std::mt19937 rng(4);
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    const double p = a.get_float("p", 2.0), eps = a.get_float("eps", 1e-12);
    const auto& xs = in[0].shape;
    std::vector<bool> reduced(xs.size(), !a.has("axes"));
    for (int64_t ax : a.get_ints("axes", {})) reduced[ax < 0 ? ax + xs.size() : ax] = true;
    std::vector<int> kept;
    for (size_t d = 0; d < xs.size(); ++d)
      if (!reduced[d]) kept.push_back(int(d));
    std::map<int64_t, double> sums;
    for (int64_t i = 0; i < ref_size(xs); ++i)
      sums[key_of(norm_unravel(i, xs), xs, kept)] += std::pow(std::fabs(in[0].data[i]), p);
    RefArray y = in[0];
    for (int64_t i = 0; i < ref_size(xs); ++i)
      y.data[i] /= std::pow(sums[key_of(norm_unravel(i, xs), xs, kept)] + eps, 1 / p);
    return std::vector<RefArray>{y};
  };
  // Away from 0, where |x|^(p-1) has a kink for p < 2.
  run_op_test({"NormNormalization", {}, {random_input({2, 3, 2}, rng, -2, 2, {0.0}, 0.1)}, ref});
  run_op_test({"NormNormalization",
               {{"p", 1.0}, {"axes", Ints{0, 2}}},
               {random_input({2, 3, 2}, rng, -2, 2, {0.0}, 0.1)},
               ref});
  run_op_test({"NormNormalization",
               {{"p", 3.0}, {"axes", Ints{-1}}},
               {random_input({3, 4}, rng, -2, 2, {0.0}, 0.1)},
               ref});
}

TEST(WeightNormalization, ForwardBackward) {
  std::mt19937 rng(5);
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    const int64_t dim = a.get_int("dim", 0);
    const double eps = a.get_float("eps", 1e-12);
    const auto& ws = in[0].shape;
    if (int64_t(in[1].data.size()) != ws[dim]) return std::vector<RefArray>{in[0]};  // invalid: the op throws
    std::vector<double> sq(static_cast<size_t>(ws[dim]), 0.0);
    for (int64_t i = 0; i < ref_size(ws); ++i) sq[norm_unravel(i, ws)[dim]] += in[0].data[i] * in[0].data[i];
    RefArray y = in[0];
    for (int64_t i = 0; i < ref_size(ws); ++i) {
      const int64_t k = norm_unravel(i, ws)[dim];
      y.data[i] = in[1].data[k] * in[0].data[i] / std::sqrt(sq[k] + eps);
    }
    return std::vector<RefArray>{y};
  };
  run_op_test({"WeightNormalization", {}, {random_input({3, 2, 2}, rng), random_input({3}, rng)}, ref});
  run_op_test(
      {"WeightNormalization", {{"dim", int64_t(1)}}, {random_input({2, 3, 2}, rng), random_input({3}, rng)}, ref});
  EXPECT_THROW(run_op_test({"WeightNormalization", {}, {random_input({3, 2}, rng), random_input({2}, rng)}, ref}),
               nn::Error);
}
