// CumSum, CumProd (exclusive, reverse, zeros) and Norm against double references.
#include <gtest/gtest.h>

#include <cmath>

#include "array_ref.hpp"
#include "op_tester.hpp"

using namespace nn::test;
using Ints = std::vector<int64_t>;

namespace {

// Cumulative sum (product when `product`) of x along the axis argument, nnabla's exclusive/reverse.
Reference cumulative_ref(bool product) {
  return [product](const RefInputs& in, const nn::Attrs& a) {
    const RefArray& x = in[0];
    int64_t axis = a.get_int("axis", 0);
    if (axis < 0) axis += int64_t(x.shape.size());
    const bool exclusive = a.get_bool("exclusive", false), reverse = a.get_bool("reverse", false);
    const int64_t len = x.shape[axis];
    return std::vector<RefArray>{make_ref(x.shape, [&](std::vector<int64_t> idx) {
      const int64_t at = idx[axis];
      double acc = product ? 1.0 : 0.0;
      for (int64_t k = 0; k < len; ++k) {
        const bool before = reverse ? k > at : k < at;
        if (!(before || (!exclusive && k == at))) continue;
        idx[axis] = k;
        const double v = x.data[size_t(ravel(idx, x.shape))];
        acc = product ? acc * v : acc + v;
      }
      return acc;
    })};
  };
}

}  // namespace

TEST(CumSum, AllModes) {
  std::mt19937 rng(1);
  for (bool exclusive : {false, true})
    for (bool reverse : {false, true}) {
      run_op_test({"CumSum",
                   {{"axis", int64_t(1)}, {"exclusive", exclusive}, {"reverse", reverse}},
                   {random_input({2, 4, 3}, rng)},
                   cumulative_ref(false)});
    }
  run_op_test({"CumSum", {}, {random_input({5}, rng)}, cumulative_ref(false)});
  run_op_test({"CumSum", {{"axis", int64_t(-1)}}, {random_input({2, 3}, rng)}, cumulative_ref(false)});
}

TEST(CumProd, AllModes) {
  std::mt19937 rng(2);
  for (bool exclusive : {false, true})
    for (bool reverse : {false, true}) {
      run_op_test({"CumProd",
                   {{"axis", int64_t(1)}, {"exclusive", exclusive}, {"reverse", reverse}},
                   {random_input({2, 4, 3}, rng, -1.5, 1.5)},
                   cumulative_ref(true)});
    }
}

TEST(CumProd, ZerosHaveExactGradients) {
  // A zero in the line: the division-free backward still gives the products of the other factors.
  RefArray x{{5}, {0.5, 0.0, 2.0, -1.5, 0.0}};
  run_op_test({"CumProd", {}, {x}, cumulative_ref(true)});
  run_op_test({"CumProd", {{"exclusive", true}, {"reverse", true}}, {x}, cumulative_ref(true)});
}

TEST(Norm, ForwardBackward) {
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    const double p = a.get_float("p", 2.0);
    const auto& xs = in[0].shape;
    std::vector<bool> reduced(xs.size(), !a.has("axes"));
    for (int64_t ax : a.get_ints("axes", {})) reduced[ax < 0 ? ax + xs.size() : ax] = true;
    nn::Shape kept_shape, out_shape;
    for (size_t d = 0; d < xs.size(); ++d) {
      kept_shape.push_back(reduced[d] ? 1 : xs[d]);
      if (!reduced[d] || a.get_bool("keep_dims", false)) out_shape.push_back(kept_shape.back());
    }
    RefArray y{out_shape, std::vector<double>(size_t(ref_size(kept_shape)), 0.0)};
    for (int64_t i = 0; i < ref_size(xs); ++i) {
      auto idx = unravel(i, xs);
      for (size_t d = 0; d < xs.size(); ++d)
        if (reduced[d]) idx[d] = 0;
      y.data[size_t(ravel(idx, kept_shape))] += std::pow(std::fabs(in[0].data[i]), p);
    }
    for (auto& v : y.data) v = std::pow(v, 1 / p);
    return std::vector<RefArray>{y};
  };
  std::mt19937 rng(3);
  run_op_test({"Norm", {}, {random_input({2, 3, 2}, rng, -2, 2, {0.0}, 0.1)}, ref});
  run_op_test({"Norm",
               {{"p", 1.0}, {"axes", Ints{1}}, {"keep_dims", true}},
               {random_input({2, 3, 2}, rng, -2, 2, {0.0}, 0.1)},
               ref});
  run_op_test(
      {"Norm", {{"p", 3.0}, {"axes", Ints{0, 2}}}, {random_input({2, 3, 2}, rng, -2, 2, {0.0}, 0.1)}, ref});
}
