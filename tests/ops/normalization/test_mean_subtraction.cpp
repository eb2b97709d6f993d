// MeanSubtraction: running-mean update and count, inference forward/backward, training backward formula.
#include <gtest/gtest.h>

#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {
RefArray subtract(const RefArray& x, const std::vector<double>& mean) {
  RefArray y = x;
  for (size_t i = 0; i < y.data.size(); ++i) y.data[i] -= mean[i % mean.size()];
  return y;
}
}  // namespace

TEST(MeanSubtraction, InferenceForwardBackward) {
  std::mt19937 rng(1);
  OpTestCase tc{
      "MeanSubtraction",
      {{"update_running_mean", false}},
      {random_input({3, 2, 2}, rng), random_input({2, 2}, rng)},
      [](const RefInputs& in, const nn::Attrs&) { return std::vector<RefArray>{subtract(in[0], in[1].data)}; }};
  tc.check_grad = {true, false};  // upstream gives no gradient to the running mean
  run_op_test(tc);
}

TEST(MeanSubtraction, TrainingUpdatesRunningMeanAndCount) {
  std::mt19937 rng(2);
  RefArray x = random_input({4, 3}, rng), rm = random_input({3}, rng);
  const double t0 = 2;
  // Forward: rmean += (batch mean - rmean) / (t + 1); y = x - new rmean; t += 1.
  std::vector<double> want_rm(3);
  for (int f = 0; f < 3; ++f) {
    double m = 0;
    for (int b = 0; b < 4; ++b) m += x.data[b * 3 + f] / 4;
    want_rm[f] = rm.data[f] + (m - rm.data[f]) / (t0 + 1);
  }
  OpTestCase tc{"MeanSubtraction", {}, {x, rm, RefArray{{1}, {t0}}}, [&](const RefInputs& in, const nn::Attrs&) {
                  return std::vector<RefArray>{subtract(in[0], want_rm)};
                }};
  tc.check_backward = false;  // upstream's training backward is a diagonal approximation, checked below
  run_op_test(tc);

  auto f = nn::OpRegistry::instance().create("MeanSubtraction", {}, nn::cpu_context());
  std::vector<nn::VariablePtr> v;
  for (const auto& a : tc.inputs) {
    v.push_back(nn::Variable::create(a.shape, true));
    float* p = v.back()->data()->cast<float>(true);
    for (size_t i = 0; i < a.data.size(); ++i) p[i] = float(a.data[i]);
  }
  auto y = nn::Variable::create();
  nn::Variables in{v[0].get(), v[1].get(), v[2].get()};
  f->setup(in, {y.get()});
  f->forward(in, {y.get()});
  auto rm_after = v[1]->data()->to_vector();
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(rm_after[i], want_rm[i], 1e-6);
  EXPECT_EQ(v[2]->data()->to_vector()[0], 3.f);
  y->grad()->fill(1.0);
  f->backward(in, {y.get()}, {true, false, false}, {false, false, false});
  for (float g : v[0]->grad()->to_vector()) EXPECT_NEAR(g, 1.0 - 1.0 / (3 * 4), 1e-6);  // 1 - 1 / (t * batch)
}
