// Mean, Max, Min, Prod over axes (keep_dims, all axes, with_index / only_index) against double references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "nn/graph/functions.hpp"
#include "nn/graph/variable.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {
enum class Kind { kMean, kMax, kMin, kProd, kArgMax };
// Reduces x over the axes set in `mask` (C order), returning values (or argmax index within the reduced
// block).
RefArray reduce_ref(const RefArray& x, const std::vector<bool>& mask, bool keep, Kind kind) {
  const size_t nd = x.shape.size();
  nn::Shape out, red_shape;
  for (size_t d = 0; d < nd; ++d) {
    if (!mask[d])
      out.push_back(x.shape[d]);
    else {
      red_shape.push_back(x.shape[d]);
      if (keep) out.push_back(1);
    }
  }
  const int64_t nout = ref_size(out);
  std::vector<std::vector<double>> groups(static_cast<size_t>(nout));
  for (int64_t i = 0; i < ref_size(x.shape); ++i) {
    int64_t rem = i, o = 0, stride = 1;
    std::vector<int64_t> idx(nd);
    for (int d = int(nd) - 1; d >= 0; --d) {
      idx[size_t(d)] = rem % x.shape[size_t(d)];
      rem /= x.shape[size_t(d)];
    }
    for (int d = int(nd) - 1; d >= 0; --d)
      if (!mask[size_t(d)]) {
        o += idx[size_t(d)] * stride;
        stride *= x.shape[size_t(d)];
      }
    groups[size_t(o)].push_back(x.data[size_t(i)]);  // visited in C order of the reduced axes
  }
  RefArray y{out, std::vector<double>(size_t(nout))};
  for (int64_t o = 0; o < nout; ++o) {
    const auto& g = groups[size_t(o)];
    double v = kind == Kind::kProd ? 1.0 : 0.0;
    if (kind == Kind::kMean) {
      for (double e : g) v += e;
      v /= double(g.size());
    } else if (kind == Kind::kProd) {
      for (double e : g) v *= e;
    } else if (kind == Kind::kMax || kind == Kind::kMin) {
      v = g[0];
      for (double e : g) v = kind == Kind::kMax ? std::max(v, e) : std::min(v, e);
    } else {
      v = double(std::max_element(g.begin(), g.end()) - g.begin());
    }
    y.data[size_t(o)] = v;
  }
  return y;
}
std::vector<bool> mask_of(const nn::Attrs& a, size_t nd) {
  if (!a.has("axes")) return std::vector<bool>(nd, true);
  std::vector<bool> m(nd, false);
  for (auto ax : a.get_ints("axes", {})) m[size_t(ax < 0 ? ax + int64_t(nd) : ax)] = true;
  return m;
}
Reference ref_of(Kind kind) {
  return [kind](const RefInputs& in, const nn::Attrs& a) {
    return std::vector<RefArray>{
        reduce_ref(in[0], mask_of(a, in[0].shape.size()), a.get_bool("keep_dims", false), kind)};
  };
}
void check_axes(const char* op, Kind kind, const RefArray& x) {
  run_op_test({op, {{"axes", std::vector<int64_t>{1}}}, {x}, ref_of(kind)});
  run_op_test({op, {{"axes", std::vector<int64_t>{0, 2}}, {"keep_dims", true}}, {x}, ref_of(kind)});
  run_op_test({op, {{"axes", std::vector<int64_t>{-1}}}, {x}, ref_of(kind)});
  run_op_test({op, {}, {x}, ref_of(kind)});
}
// Distinct values (a shuffled grid), so max/min never tie.
RefArray distinct(const nn::Shape& s, std::mt19937& rng) {
  RefArray a{s, std::vector<double>(size_t(ref_size(s)))};
  for (size_t i = 0; i < a.data.size(); ++i) a.data[i] = -1.0 + 0.0625 * double(i);
  std::shuffle(a.data.begin(), a.data.end(), rng);
  return a;
}
}  // namespace

TEST(Mean, AxesAndKeepDims) {
  std::mt19937 rng(51);
  check_axes("Mean", Kind::kMean, random_input({2, 3, 4}, rng));
}
TEST(Max, AxesAndKeepDims) {
  std::mt19937 rng(52);
  check_axes("Max", Kind::kMax, distinct({2, 3, 4}, rng));
}
TEST(Min, AxesAndKeepDims) {
  std::mt19937 rng(53);
  check_axes("Min", Kind::kMin, distinct({2, 3, 4}, rng));
}
TEST(Max, WithIndexAndOnlyIndex) {
  std::mt19937 rng(54);
  auto x = distinct({3, 4, 2}, rng);
  nn::Attrs with{{"axes", std::vector<int64_t>{1}}, {"with_index", true}};
  auto both = [](const RefInputs& in, const nn::Attrs& a) {
    auto m = mask_of(a, 3);
    return std::vector<RefArray>{reduce_ref(in[0], m, false, Kind::kMax),
                                 reduce_ref(in[0], m, false, Kind::kArgMax)};
  };
  OpTestCase tc{"Max", with, {x}, both};
  tc.skip_outputs_for_grad = 1;  // the index output carries no gradient
  run_op_test(tc);
  nn::Attrs only{{"axes", std::vector<int64_t>{1, 2}}, {"only_index", true}};
  OpTestCase ti{"Max", only, {x}, [](const RefInputs& in, const nn::Attrs& a) {
                  return std::vector<RefArray>{reduce_ref(in[0], mask_of(a, 3), false, Kind::kArgMax)};
                }};
  ti.check_backward = false;
  run_op_test(ti);
}
TEST(Prod, AxesAndKeepDims) {
  std::mt19937 rng(55);
  check_axes("Prod", Kind::kProd, random_input({2, 3, 4}, rng, 0.5, 1.5));
}
TEST(Prod, ExactZeros) {
  // One zero in the first group, two in the second: the gradients must stay finite and exact.
  RefArray x{{2, 3}, {2.0, 0.0, 3.0, 0.0, 0.0, 5.0}};
  run_op_test({"Prod", {{"axes", std::vector<int64_t>{1}}}, {x}, ref_of(Kind::kProd)});
}

// Reducing empty axes gives the operation's identity (ONNX ReduceMax/ReduceMin from opset 18): -inf for Max, +inf
// for Min, one per output element; an empty output stays empty, and an index of nothing is refused.
TEST(Max, EmptyAxesGiveMinusInfinity) {
  for (const char* type : {"Max", "Min"}) {
    auto x = nn::Variable::create({2, 0, 3});
    auto y = nn::call1(type, {x}, {{"axes", std::vector<int64_t>{1}}});
    y->forward();
    ASSERT_EQ(y->shape(), nn::Shape({2, 3})) << type;
    const float want = std::string(type) == "Max" ? -INFINITY : INFINITY;
    for (float v : y->data()->to_vector()) EXPECT_EQ(v, want) << type;
    auto all = nn::call1(type, {nn::Variable::create({0, 4})}, {});
    all->forward();
    EXPECT_EQ(all->data()->to_vector(), std::vector<float>{want}) << type;
    auto none = nn::call1(type, {nn::Variable::create({0, 4})}, {{"axes", std::vector<int64_t>{1}}});
    none->forward();
    EXPECT_EQ(none->shape(), nn::Shape({0})) << type;
  }
  EXPECT_THROW(nn::call1("Max", {nn::Variable::create({0, 4})}, {{"with_index", true}}), nn::Error);
}
