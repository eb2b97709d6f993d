// TopKData (reduced and masked, abs, smallest, indices) and TopKGrad (keeps the k largest gradients).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "../special/custom_grad_check.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {
// Positions of the k best entries of row[0..n), best first.
std::vector<size_t> ref_top(const double* row, size_t n, size_t k, bool use_abs, bool largest) {
  std::vector<size_t> idx(n);
  std::iota(idx.begin(), idx.end(), size_t(0));
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    const double ka = use_abs ? std::fabs(row[a]) : row[a], kb = use_abs ? std::fabs(row[b]) : row[b];
    return largest ? ka > kb : ka < kb;
  });
  idx.resize(k);
  return idx;
}

std::vector<RefArray> top_k_data_ref(const RefInputs& in, const nn::Attrs& a) {
  const auto& x = in[0];
  const size_t base = size_t(a.get_int("base_axis", 1)), k = size_t(a.get_int("k", 1));
  const bool reduce = a.get_bool("reduce", true);
  nn::Shape rs(x.shape.begin(), x.shape.begin() + long(base));
  rs.push_back(int64_t(k));
  const size_t outer = size_t(ref_size(rs)) / k, inner = x.data.size() / outer;
  RefArray y{reduce ? rs : x.shape, std::vector<double>(reduce ? outer * k : x.data.size(), 0.0)};
  RefArray ind{rs, std::vector<double>(outer * k)};
  for (size_t s = 0; s < outer; ++s) {
    auto top = ref_top(&x.data[s * inner], inner, k, a.get_bool("abs", false), a.get_bool("largest", true));
    for (size_t j = 0; j < k; ++j) {
      (reduce ? y.data[s * k + j] : y.data[s * inner + top[j]]) = x.data[s * inner + top[j]];
      ind.data[s * k + j] = double(top[j]);
    }
  }
  if (a.get_bool("with_index", false)) return {y, ind};
  return {y};
}
}  // namespace

TEST(TopKData, ReducedAndMasked) {
  std::mt19937 rng(12);
  auto x = random_input({2, 3, 4}, rng);
  run_op_test({"TopKData", {{"k", int64_t(3)}}, {x}, top_k_data_ref});
  run_op_test({"TopKData", {{"k", int64_t(2)}, {"reduce", false}}, {x}, top_k_data_ref});
  run_op_test(
      {"TopKData", {{"k", int64_t(2)}, {"base_axis", int64_t(2)}, {"largest", false}}, {x}, top_k_data_ref});
  auto xa = random_input({2, 6}, rng, -1, 1, {0.0}, 0.1);
  run_op_test({"TopKData", {{"k", int64_t(2)}, {"abs", true}}, {xa}, top_k_data_ref});
}

TEST(TopKData, WithIndex) {
  std::mt19937 rng(13);
  OpTestCase tc{
      "TopKData", {{"k", int64_t(2)}, {"with_index", true}}, {random_input({3, 5}, rng)}, top_k_data_ref};
  tc.skip_outputs_for_grad = 1;  // indices carry no gradient
  run_op_test(tc);
}

TEST(TopKData, RejectsKLargerThanSample) {
  std::mt19937 rng(14);
  EXPECT_ANY_THROW(run_op_test({"TopKData", {{"k", int64_t(7)}}, {random_input({2, 6}, rng)}, top_k_data_ref}));
}

TEST(TopKGrad, KeepsLargestGradients) {
  std::mt19937 rng(15);
  auto x = random_input({2, 5}, rng);
  OpTestCase tc{"TopKGrad", {{"k", int64_t(2)}}, {x}, [](const RefInputs& in, const nn::Attrs&) {
                  return std::vector<RefArray>{in[0]};
                }};
  tc.check_backward = false;  // the backward selects gradients; checked below
  run_op_test(tc);
  std::vector<double> g{0.3, -0.9, 0.1, 0.7, -0.2, -0.5, 0.05, 0.6, -0.8, 0.4};
  for (bool use_abs : {false, true}) {
    std::vector<double> want(10, 0.0);
    for (size_t s = 0; s < 2; ++s)
      for (size_t p : ref_top(&g[s * 5], 5, 2, use_abs, true)) want[s * 5 + p] = g[s * 5 + p];
    check_custom_backward("TopKGrad", {{"k", int64_t(2)}, {"abs", use_abs}}, {x}, g, {want});
  }
}
