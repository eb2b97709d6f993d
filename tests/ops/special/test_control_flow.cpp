// Loop and If (ONNX control flow run by the engine, each over graphs of its own) and ONNXSlice (positions read
// when it runs), against references written out in the tests.
#include <gtest/gtest.h>

#include "nn/core/error.hpp"
#include "nn/graph/functions.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

using namespace nn;
using namespace nn::test;

namespace {

VariablePtr input(const Shape& shape, std::vector<float> values) {
  auto v = Variable::create(shape);
  float* p = v->data()->cast<float>(true);
  for (size_t i = 0; i < values.size(); ++i) p[i] = values[i];
  return v;
}

std::vector<VariablePtr> run(const std::string& type, const Attrs& attrs, std::vector<SubGraph> graphs,
                             const std::vector<VariablePtr>& inputs) {
  FunctionPtr f = OpRegistry::instance().create(type, attrs, cpu_context());
  f->set_subgraphs(std::move(graphs));
  auto outs = connect(f, inputs);
  forward_all(outs);
  return outs;
}

// Body (iteration i (1,), condition c, carried acc (3,), outer x (3,)): acc' = acc + x, scan = acc' * i, and
// condition i < stop (`stop` < 0: c as given).
SubGraph accumulate_body(double stop) {
  SubGraph g;
  auto i = Variable::create({1}), c = Variable::create({}), acc = Variable::create({3}), x = Variable::create({3});
  for (auto& v : {i, c, acc, x}) v->data()->zero();
  auto next = F::add2(acc, x);
  auto scan = F::mul2(next, i);
  auto cond = stop < 0 ? F::identity(c) : call1("LessScalar", {i}, {{"val", stop}});
  g.inputs = {i, c, acc, x};
  g.outputs = {cond, next, scan};
  return g;
}

Attrs loop_attrs(bool has_trip, bool has_cond, int64_t max_iterations = 10000000) {
  return {{"num_carried", int64_t(1)},
          {"num_scan", int64_t(1)},
          {"has_trip_count", has_trip},
          {"has_condition", has_cond},
          {"max_iterations", max_iterations}};
}

void expect_values(const VariablePtr& v, const Shape& shape, const std::vector<float>& want) {
  ASSERT_EQ(v->shape(), shape);
  const float* p = v->data()->get<float>();
  for (size_t k = 0; k < want.size(); ++k) EXPECT_FLOAT_EQ(p[k], want[k]) << "element " << k;
}

}  // namespace

TEST(Loop, TripCountCarriesAndStacks) {
  const std::vector<float> x{1.f, -2.f, 0.5f};
  for (int64_t m : {4, 0}) {
    auto outs = run("Loop", loop_attrs(true, true), {accumulate_body(-1)},
                    {input({}, {float(m)}), input({}, {1.f}), input({3}, {0.f, 0.f, 0.f}), input({3}, x)});
    std::vector<float> acc(3, 0.f), scans;
    for (int64_t i = 0; i < m; ++i)
      for (size_t k = 0; k < 3; ++k) {
        acc[k] += x[k];
        scans.push_back(acc[k] * float(i));
      }
    expect_values(outs[0], {3}, acc);
    expect_values(outs[1], {m, 3}, scans);
  }
}

TEST(Loop, ConditionStops) {
  // No trip count: the body's condition (i < 2) ends the loop after iterations 0, 1 and 2.
  auto outs = run("Loop", loop_attrs(false, true), {accumulate_body(2)},
                  {input({}, {0.f}), input({}, {1.f}), input({3}, {1.f, 1.f, 1.f}), input({3}, {1.f, 2.f, 3.f})});
  expect_values(outs[0], {3}, {4.f, 7.f, 10.f});
  expect_values(outs[1], {3, 3}, {0.f, 0.f, 0.f, 3.f, 5.f, 7.f, 8.f, 14.f, 20.f});
  // A false condition at the start runs no iteration.
  outs = run("Loop", loop_attrs(false, true), {accumulate_body(2)},
             {input({}, {0.f}), input({}, {0.f}), input({3}, {1.f, 1.f, 1.f}), input({3}, {1.f, 2.f, 3.f})});
  expect_values(outs[0], {3}, {1.f, 1.f, 1.f});
  EXPECT_EQ(outs[1]->shape(), (Shape{0, 3}));
}

TEST(Loop, EndlessLoopStopsAtMaxIterations) {
  try {
    run("Loop", loop_attrs(false, true, 50), {accumulate_body(-1)},
        {input({}, {0.f}), input({}, {1.f}), input({3}, {0.f, 0.f, 0.f}), input({3}, {1.f, 1.f, 1.f})});
    FAIL() << "an endless loop ran to its end";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("still running after 50 iterations"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("condition never turned false"), std::string::npos) << e.what();
  }
}

TEST(If, RunsTheBranchItsConditionChooses) {
  // then: 2 x (2, 3); else: the sum of x's rows (3,) ... both read x (passed once per branch).
  auto make = [] {
    std::vector<SubGraph> g(2);
    auto xt = Variable::create({2, 3}), xe = Variable::create({2, 3});
    xt->data()->zero();
    xe->data()->zero();
    g[0] = {{xt}, {F::mul_scalar(xt, 2.0)}};
    g[1] = {{xe}, {call1("Sum", {xe}, {{"axes", std::vector<int64_t>{0}}})}};
    return g;
  };
  const std::vector<float> x{1.f, 2.f, 3.f, 4.f, 5.f, 6.f};
  const Attrs attrs{{"num_then_inputs", int64_t(1)}, {"num_outputs", int64_t(1)}};
  auto then_out = run("If", attrs, make(), {input({}, {1.f}), input({2, 3}, x), input({2, 3}, x)});
  expect_values(then_out[0], {2, 3}, {2.f, 4.f, 6.f, 8.f, 10.f, 12.f});
  auto else_out = run("If", attrs, make(), {input({}, {0.f}), input({2, 3}, x), input({2, 3}, x)});
  expect_values(else_out[0], {3}, {5.f, 7.f, 9.f});
}

TEST(ONNXSlice, PositionsReadWhenItRuns) {
  // ONNX's rule written out: negative positions count from the end, then clamp, then walk by the step.
  auto ref = [](const RefInputs& in, const Attrs& a) {
    const Shape& xs = in[0].shape;
    std::vector<std::vector<int64_t>> picks(xs.size());
    for (size_t d = 0; d < xs.size(); ++d)
      for (int64_t i = 0; i < xs[d]; ++i) picks[d].push_back(i);
    const auto axes = a.get_ints("axes");
    for (size_t k = 0; k < axes.size(); ++k) {
      const int64_t d = axes[k] < 0 ? axes[k] + int64_t(xs.size()) : axes[k], n = xs[size_t(d)];
      int64_t s = int64_t(in[1].data[k]), e = int64_t(in[2].data[k]), st = int64_t(in[3].data[k]);
      s = s < 0 ? s + n : s;
      e = e < 0 ? e + n : e;
      picks[size_t(d)].clear();
      if (st > 0)
        for (int64_t i = std::max<int64_t>(s, 0); i < std::min(e, n); i += st) picks[size_t(d)].push_back(i);
      else
        for (int64_t i = std::min(s, n - 1); i > std::max<int64_t>(e, -1); i += st) picks[size_t(d)].push_back(i);
    }
    RefArray y{{int64_t(picks[0].size()), int64_t(picks[1].size())}, {}};
    for (int64_t r : picks[0])
      for (int64_t c : picks[1]) y.data.push_back(in[0].data[size_t(r * xs[1] + c)]);
    return std::vector<RefArray>{y};
  };
  std::mt19937 rng(5);
  const RefArray x = random_input({6, 5}, rng);
  const std::vector<std::vector<double>> cases[] = {{{1, 4}, {5, 0}, {2, -1}},
                                                    {{-5, -1}, {100, -100}, {1, -2}},
                                                    {{3, 7}, {1, 9}, {1, 1}},
                                                    {{0, -9}, {6, 5}, {4, 3}}};
  for (const auto& c : cases) {
    OpTestCase tc{
        "ONNXSlice", {{"axes", std::vector<int64_t>{0, -1}}}, {x, {{2}, c[0]}, {{2}, c[1]}, {{2}, c[2]}}, ref};
    tc.check_backward = false;
    run_op_test(tc);
  }
  OpTestCase zero_step{
      "ONNXSlice", {{"axes", std::vector<int64_t>{0}}}, {x, {{1}, {0}}, {{1}, {3}}, {{1}, {0}}}, ref};
  zero_step.check_backward = false;
  EXPECT_THROW(run_op_test(zero_step), Error);
}
