// DynamicLossScaler: unscaling finite grads, skipping and lowering the scale on inf/NaN, growth after the
// interval (nnabla's counter order), divergence reported, bad options refused.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "nn/core/error.hpp"
#include "nn/train/loss_scaler.hpp"

namespace nn::train {
namespace {

struct OneParameter {
  VariablePtr w = Variable::create({3}, true);
  std::unique_ptr<Solver> solver = create_solver("Sgd", {{"lr", 1.0}});
  OneParameter() { solver->set_parameters({{"w", w}}); }
  void set_grad(std::vector<float> g) {
    float* p = w->grad()->cast<float>(true);
    for (size_t i = 0; i < g.size(); ++i) p[i] = g[i];
  }
};

TEST(DynamicLossScaler, FiniteGradsAreUnscaled) {
  OneParameter p;
  DynamicLossScaler scaler({true, 8.0, 2.0, 2000});
  p.set_grad({8.f, -16.f, 4.f});
  EXPECT_TRUE(scaler.unscale_or_skip(*p.solver));
  EXPECT_EQ(p.w->grad()->to_vector(), (std::vector<float>{1.f, -2.f, 0.5f}));
  EXPECT_EQ(scaler.scale(), 8.0);
  EXPECT_EQ(scaler.counter(), 1);
  EXPECT_EQ(scaler.skipped_updates(), 0);
}

TEST(DynamicLossScaler, InfOrNanSkipsAndLowersTheScale) {
  OneParameter p;
  DynamicLossScaler scaler({true, 8.0, 2.0, 2000});
  p.set_grad({1.f, 1.f, 1.f});
  EXPECT_TRUE(scaler.unscale_or_skip(*p.solver));
  for (float bad : {std::numeric_limits<float>::infinity(), std::nanf("")}) {
    p.set_grad({1.f, bad, 1.f});
    EXPECT_FALSE(scaler.unscale_or_skip(*p.solver));
    EXPECT_EQ(p.w->grad()->to_vector()[0], 1.f) << "a skipped update leaves the grads alone";
    EXPECT_EQ(scaler.counter(), 0);
  }
  EXPECT_EQ(scaler.scale(), 2.0);
  EXPECT_EQ(scaler.skipped_updates(), 2);
}

TEST(DynamicLossScaler, GrowsAfterTheIntervalAsNnabla) {
  OneParameter p;
  DynamicLossScaler scaler({true, 4.0, 2.0, 3});
  std::vector<double> scales;
  for (int step = 0; step < 9; ++step) {
    p.set_grad({1.f, 1.f, 1.f});
    ASSERT_TRUE(scaler.unscale_or_skip(*p.solver));
    scales.push_back(scaler.scale());
  }
  // nnabla checks `counter > N` before counting the update: the first growth at the 5th update (N + 2),
  // then every N + 1 updates.
  EXPECT_EQ(scales, (std::vector<double>{4, 4, 4, 4, 8, 8, 8, 8, 16}));
}

TEST(DynamicLossScaler, RestoreContinuesTheSchedule) {
  OneParameter p;
  DynamicLossScaler scaler({true, 4.0, 2.0, 3});
  scaler.restore(64.0, 4);
  p.set_grad({64.f, 64.f, 64.f});
  ASSERT_TRUE(scaler.unscale_or_skip(*p.solver));
  EXPECT_EQ(p.w->grad()->to_vector()[0], 1.f);
  EXPECT_EQ(scaler.scale(), 128.0);
  EXPECT_THROW(scaler.restore(0.0, 1), Error);
}

TEST(DynamicLossScaler, GradsThatStayNonFiniteAreReportedAsDivergence) {
  OneParameter p;
  DynamicLossScaler scaler({true, 1.0, 1e6, 10});
  p.set_grad({std::nanf(""), 0.f, 0.f});
  EXPECT_FALSE(scaler.unscale_or_skip(*p.solver));  // 1e-6
  try {                                             // 1e-12 is below any useful fp16 loss scale
    scaler.unscale_or_skip(*p.solver);
    FAIL() << "expected nn::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the network diverged"), std::string::npos) << e.what();
  }
}

TEST(DynamicLossScaler, BadOptionsAreRefused) {
  EXPECT_THROW(DynamicLossScaler({true, 0.0, 2.0, 10}), Error);
  EXPECT_THROW(DynamicLossScaler({true, 1e39, 2.0, 10}), Error);
  EXPECT_THROW(DynamicLossScaler({true, 8.0, 1.0, 10}), Error);
  EXPECT_THROW(DynamicLossScaler({true, 8.0, 2.0, 0}), Error);
}

}  // namespace
}  // namespace nn::train
