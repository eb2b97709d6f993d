// ONNXReshape, ONNXExpand, ONNXConstantOfShape, ONNXRange and ONNXResizeTo: shapes read from tensors when they
// run, against references written out here (ONNXResizeTo against ONNXResize given the same sizes as an argument).
#include <gtest/gtest.h>

#include <tuple>

#include "nn/core/error.hpp"
#include "nn/graph/functions.hpp"
#include "op_tester.hpp"

using namespace nn;
using namespace nn::test;

namespace {
OpTestCase forward_only(const std::string& type, Attrs attrs, std::vector<RefArray> inputs, Reference ref) {
  OpTestCase tc{type, std::move(attrs), std::move(inputs), std::move(ref)};
  tc.check_backward = false;
  return tc;
}
}  // namespace

TEST(ONNXReshape, ZeroCopiesAndMinusOneInfers) {
  std::mt19937 rng(3);
  const RefArray x = random_input({2, 3, 4}, rng);
  auto to = [](Shape s) {
    return [s](const RefInputs& in, const Attrs&) { return std::vector<RefArray>{RefArray{s, in[0].data}}; };
  };
  run_op_test(forward_only("ONNXReshape", {}, {x, {{3}, {0, -1, 2}}}, to({2, 6, 2})));
  run_op_test(forward_only("ONNXReshape", {}, {x, {{2}, {-1, 8}}}, to({3, 8})));
  run_op_test(forward_only("ONNXReshape", {}, {x, {{1}, {24}}}, to({24})));
  EXPECT_THROW(run_op_test(forward_only("ONNXReshape", {}, {x, {{2}, {5, -1}}}, to({}))), Error);
  EXPECT_THROW(run_op_test(forward_only("ONNXReshape", {}, {x, {{2}, {-1, -1}}}, to({}))), Error);
}

TEST(ONNXExpand, BroadcastsBothWays) {
  const RefArray x{{3, 1}, {1.0, 2.0, 3.0}};
  // (3, 1) with (2, 1, 4) -> (2, 3, 4): x[i] repeated along the last axis, twice.
  auto ref = [](const RefInputs& in, const Attrs&) {
    RefArray y{{2, 3, 4}, {}};
    for (int b = 0; b < 2; ++b)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) y.data.push_back(in[0].data[size_t(i)]);
    return std::vector<RefArray>{y};
  };
  run_op_test(forward_only("ONNXExpand", {}, {x, {{3}, {2, 1, 4}}}, ref));
  // A shape of 1s keeps x's larger dims.
  run_op_test(forward_only("ONNXExpand", {}, {x, {{1}, {1}}},
                           [](const RefInputs& in, const Attrs&) { return std::vector<RefArray>{in[0]}; }));
  EXPECT_THROW(run_op_test(forward_only("ONNXExpand", {}, {x, {{2}, {4, 2}}}, ref)), Error);  // 3 vs 4
}

TEST(ONNXConstantOfShape, FillsTheShapeGiven) {
  auto ref = [](const RefInputs&, const Attrs&) { return std::vector<RefArray>{RefArray{{2, 0, 3}, {}}}; };
  run_op_test(forward_only("ONNXConstantOfShape", {{"value", 2.5}}, {{{3}, {2, 0, 3}}}, ref));
  run_op_test(
      forward_only("ONNXConstantOfShape", {{"value", -1.0}}, {{{2}, {2, 3}}}, [](const RefInputs&, const Attrs&) {
        return std::vector<RefArray>{RefArray{{2, 3}, std::vector<double>(6, -1.0)}};
      }));
  // Negative dims and sizes past the limit are refused before anything is allocated.
  EXPECT_THROW(run_op_test(forward_only("ONNXConstantOfShape", {}, {{{1}, {-3}}}, ref)), Error);
  EXPECT_THROW(run_op_test(forward_only("ONNXConstantOfShape", {}, {{{2}, {1 << 20, 1 << 20}}}, ref)), Error);
}

TEST(ONNXResizeTo, EqualsONNXResizeWithTheSameSizes) {
  std::mt19937 rng(4);
  const RefArray x = random_input({1, 2, 3, 5}, rng);
  for (const std::string mode : {"linear", "nearest", "cubic"}) {
    const std::vector<int64_t> sizes{1, 2, 7, 4};
    const Attrs fixed{{"mode", mode}, {"sizes", sizes}};
    auto ref = [&](const RefInputs& in, const Attrs&) {
      auto v = Variable::create(in[0].shape);
      float* p = v->data()->cast<float>(true);
      for (size_t i = 0; i < in[0].data.size(); ++i) p[i] = float(in[0].data[i]);
      auto y = call1("ONNXResize", {v}, fixed);
      y->forward();
      RefArray r{y->shape(), {}};
      for (float f : y->data()->to_vector()) r.data.push_back(f);
      return std::vector<RefArray>{r};
    };
    run_op_test(forward_only("ONNXResizeTo", {{"mode", mode}}, {x, {{4}, {1, 2, 7, 4}}}, ref));
  }
  EXPECT_THROW(
      run_op_test(forward_only("ONNXResizeTo", {}, {x, {{4}, {1, 2, 0, 4}}},
                               [](const RefInputs& in, const Attrs&) { return std::vector<RefArray>{in[0]}; })),
      Error);
}

TEST(ONNXRange, CountFollowsTheValues) {
  auto ref = [](const RefInputs& in, const Attrs&) {
    RefArray y{{0}, {}};
    for (double v = in[0].data[0]; in[2].data[0] > 0 ? v < in[1].data[0] : v > in[1].data[0]; v += in[2].data[0])
      y.data.push_back(v);
    y.shape = {int64_t(y.data.size())};
    return std::vector<RefArray>{y};
  };
  for (const auto& [start, limit, delta] :
       {std::tuple{0.0, 5.0, 1.0}, {1.0, 2.5, 0.5}, {10.0, 4.0, -3.0}, {3.0, 1.0, 1.0}})
    run_op_test(forward_only("ONNXRange", {}, {{{}, {start}}, {{}, {limit}}, {{}, {delta}}}, ref));
  // Delta 0 and a count past the limit are refused before anything is allocated.
  auto none = [](const RefInputs&, const Attrs&) { return std::vector<RefArray>{RefArray{{0}, {}}}; };
  EXPECT_THROW(run_op_test(forward_only("ONNXRange", {}, {{{}, {0.0}}, {{}, {1.0}}, {{}, {0.0}}}, none)), Error);
  EXPECT_THROW(run_op_test(forward_only("ONNXRange", {}, {{{}, {0.0}}, {{}, {1e12}}, {{}, {1.0}}}, none)), Error);
}
