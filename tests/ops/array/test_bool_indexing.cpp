// BoolGather, BoolScatter, BoolFill against double references (masks get no gradient).
#include <gtest/gtest.h>

#include "../stochastic/run_forward.hpp"
#include "array_ref.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {

OpTestCase masked_case(const std::string& type, const nn::Attrs& attrs, std::vector<RefArray> inputs,
                       Reference ref) {
  OpTestCase tc{type, attrs, std::move(inputs), std::move(ref)};
  tc.check_grad.assign(tc.inputs.size(), true);
  tc.check_grad[1] = false;  // the mask is piecewise constant
  return tc;
}

}  // namespace

TEST(BoolGather, RowsWhereMaskIsTrue) {
  auto ref = [](const RefInputs& in, const nn::Attrs&) {
    const int64_t rows = ref_size(in[1].shape), row = ref_size(in[0].shape) / rows;
    RefArray y{{0}, {}};
    int64_t nnz = 0;
    for (int64_t b = 0; b < rows; ++b)
      if (in[1].data[b] != 0) {
        ++nnz;
        for (int64_t j = 0; j < row; ++j) y.data.push_back(in[0].data[b * row + j]);
      }
    y.shape = in[0].shape.size() == in[1].shape.size() ? nn::Shape{nnz} : nn::Shape{nnz, row};
    return std::vector<RefArray>{y};
  };
  std::mt19937 rng(1);
  run_op_test(
      masked_case("BoolGather", {}, {random_input({2, 3, 2, 2}, rng), RefArray{{2, 3}, {1, 0, 1, 1, 0, 0}}}, ref));
  run_op_test(masked_case("BoolGather", {}, {random_input({4}, rng), RefArray{{4}, {0, 1, 0, 1}}}, ref));
}

TEST(BoolScatter, InverseOfGather) {
  auto ref = [](const RefInputs& in, const nn::Attrs&) {
    nn::Shape ys = in[1].shape;
    ys.insert(ys.end(), in[0].shape.begin() + 1, in[0].shape.end());
    const int64_t rows = ref_size(in[1].shape), row = ref_size(ys) / rows;
    RefArray y{ys, in.size() == 3 ? in[2].data : std::vector<double>(size_t(ref_size(ys)), 0.0)};
    for (int64_t b = 0, k = 0; b < rows; ++b)
      if (in[1].data[b] != 0) {
        for (int64_t j = 0; j < row; ++j) y.data[b * row + j] = in[0].data[k * row + j];
        ++k;
      }
    return std::vector<RefArray>{y};
  };
  std::mt19937 rng(2);
  RefArray mask{{2, 3}, {0, 1, 1, 0, 0, 1}};
  run_op_test(masked_case("BoolScatter", {}, {random_input({3, 2}, rng), mask}, ref));
  run_op_test(
      masked_case("BoolScatter", {}, {random_input({3, 2}, rng), mask, random_input({2, 3, 2}, rng)}, ref));
  EXPECT_THROW(forward_once("BoolScatter", {}, {random_input({2, 2}, rng), mask}), nn::Error);
}

TEST(BoolFill, BroadcastMask) {
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    const auto& ds = in[0].shape;
    nn::Shape aligned(ds.size() - in[1].shape.size(), 1);
    aligned.insert(aligned.end(), in[1].shape.begin(), in[1].shape.end());
    return std::vector<RefArray>{make_ref(ds, [&](std::vector<int64_t> i) {
      const double v = in[0].data[size_t(ravel(i, ds))];
      for (size_t d = 0; d < ds.size(); ++d)
        if (aligned[d] == 1) i[d] = 0;
      return in[1].data[size_t(ravel(i, aligned))] != 0 ? a.get_float("value", 0.0) : v;
    })};
  };
  std::mt19937 rng(3);
  run_op_test(masked_case("BoolFill", {{"value", 2.5}},
                          {random_input({2, 3}, rng), RefArray{{2, 3}, {1, 0, 0, 1, 1, 0}}}, ref));
  run_op_test(masked_case("BoolFill", {}, {random_input({2, 3, 2}, rng), RefArray{{3, 1}, {0, 1, 1}}}, ref));
}
