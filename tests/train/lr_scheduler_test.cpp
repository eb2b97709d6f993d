// Learning-rate schedules of nnabla_cli train (docs/command_line.md#train-learning-rate-schedules) against
// their formulas.
#include "nn/train/lr_scheduler.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "nn/core/error.hpp"

using nn::train::LearningRateScheduler;

namespace {
nn::ir::Solver solver(const std::string& type) {
  nn::ir::Solver s;
  s.type = "Sgd";
  s.lr_scheduler_type = type;
  return s;
}
}  // namespace

TEST(LearningRateScheduler, LegacyDecayIsStepwise) {
  nn::ir::Solver s = solver("");
  s.lr_decay = 0.5;
  s.lr_decay_interval = 10;
  LearningRateScheduler lr(s, 0.1, 100);
  EXPECT_DOUBLE_EQ(lr.rate(0), 0.1);
  EXPECT_DOUBLE_EQ(lr.rate(9), 0.1);
  EXPECT_DOUBLE_EQ(lr.rate(10), 0.05);
  EXPECT_DOUBLE_EQ(lr.rate(25), 0.025);
}

TEST(LearningRateScheduler, LegacyDecayOneOrIntervalZeroIsConstant) {
  nn::ir::Solver s = solver("");
  s.lr_decay = 1.0;
  s.lr_decay_interval = 1;
  EXPECT_DOUBLE_EQ(LearningRateScheduler(s, 0.5, 30).rate(29), 0.5);
  s.lr_decay = 0.9;
  s.lr_decay_interval = 0;  // nnabla_cli would decay every iteration, nbla crashes: kept constant here
  EXPECT_DOUBLE_EQ(LearningRateScheduler(s, 0.5, 30).rate(29), 0.5);
}

TEST(LearningRateScheduler, PolynomialCosineExponentialStep) {
  nn::ir::Solver p = solver("Polynomial");
  p.lr_scheduler_params.set("power", 2.0);
  EXPECT_NEAR(LearningRateScheduler(p, 1.0, 100).rate(25), 0.75 * 0.75, 1e-12);
  nn::ir::Solver c = solver("Cosine");
  EXPECT_NEAR(LearningRateScheduler(c, 1.0, 100).rate(50), 0.5, 1e-12);
  EXPECT_NEAR(LearningRateScheduler(c, 1.0, 100).rate(0), 1.0, 1e-12);
  nn::ir::Solver e = solver("Exponential");
  e.lr_scheduler_params.set("gamma", 0.5);
  e.lr_scheduler_params.set("iter_interval", int64_t(4));
  EXPECT_DOUBLE_EQ(LearningRateScheduler(e, 1.0, 100).rate(9), 0.25);
  nn::ir::Solver st = solver("Step");
  st.lr_scheduler_params.set("gamma", 0.1);
  st.lr_scheduler_params.set("iter_steps", std::vector<int64_t>{10, 20});
  LearningRateScheduler step(st, 1.0, 100);
  EXPECT_DOUBLE_EQ(step.rate(9), 1.0);
  EXPECT_NEAR(step.rate(10), 0.1, 1e-15);
  EXPECT_NEAR(step.rate(35), 0.01, 1e-15);
}

TEST(LearningRateScheduler, LinearWarmup) {
  nn::ir::Solver s = solver("");
  s.lr_warmup_scheduler_type = "Linear";
  s.warmup_iter = 4;
  LearningRateScheduler lr(s, 1.0, 100);
  EXPECT_DOUBLE_EQ(lr.rate(0), 0.25);
  EXPECT_DOUBLE_EQ(lr.rate(3), 1.0);
  EXPECT_DOUBLE_EQ(lr.rate(50), 1.0);
}

TEST(LearningRateScheduler, UnknownTypesFail) {
  try {
    LearningRateScheduler(solver("Linear"), 1.0, 10);
    FAIL() << "no error";
  } catch (const nn::Error& e) {
    EXPECT_STREQ(e.what(), "Learning Rate Scheduler \"Linear\" is not supported.");
  }
  EXPECT_THROW(LearningRateScheduler(solver("Custom"), 1.0, 10), nn::Error);
}

TEST(LearningRateScheduler, InitialRateFromSolverMessage) {
  nn::ir::Solver s;
  s.params.set("alpha", 0.002);
  EXPECT_DOUBLE_EQ(nn::train::initial_learning_rate(s), 0.002);
  s.params = nn::Attrs{{"lr", 0.5}};
  EXPECT_DOUBLE_EQ(nn::train::initial_learning_rate(s), 0.5);
}
