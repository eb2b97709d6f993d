// AdaptiveWait (libnn/src/ops/detail/adaptive_wait.hpp): the spin time of idle OpenMP workers follows the load,
// measured at most every kCheckEvery, and the runtime is called only when the choice changes.
#include <gtest/gtest.h>

#include <vector>

#include "ops/detail/adaptive_wait.hpp"

namespace {

using nn::ops::AdaptiveWait;
using Clock = std::chrono::steady_clock;

struct FakeRuntime {
  std::vector<int> set;       // spin times the runtime was given, in order
  std::vector<bool> loads{};  // what the next measures say (true: quiet)
  size_t measured = 0;
  AdaptiveWait make() {
    return AdaptiveWait([this](int ms) { set.push_back(ms); }, [this] { return loads.at(measured++); });
  }
};

TEST(AdaptiveWait, StartsSpinningAsOnAnIdleMachine) {
  FakeRuntime rt;
  AdaptiveWait wait = rt.make();
  EXPECT_EQ(rt.set, std::vector<int>{AdaptiveWait::kQuietSpinMs});
  EXPECT_EQ(wait.spin_ms(), AdaptiveWait::kQuietSpinMs);
  EXPECT_GT(AdaptiveWait::kQuietSpinMs, AdaptiveWait::kBusySpinMs);
}

TEST(AdaptiveWait, SleepsAtOnceWhileBusyAndSpinsAgainWhenQuiet) {
  FakeRuntime rt;
  rt.loads = {false, false, true};
  AdaptiveWait wait = rt.make();
  Clock::time_point t = Clock::now();
  for (int i = 0; i < 3; ++i) wait.update(t += AdaptiveWait::kCheckEvery);
  EXPECT_EQ(rt.measured, 3u);
  // busy: 0; busy again: no call; quiet: back to the spin.
  EXPECT_EQ(rt.set,
            (std::vector<int>{AdaptiveWait::kQuietSpinMs, AdaptiveWait::kBusySpinMs, AdaptiveWait::kQuietSpinMs}));
}

TEST(AdaptiveWait, MeasuresAtMostEveryCheckInterval) {
  FakeRuntime rt;
  rt.loads = {false};
  AdaptiveWait wait = rt.make();
  const Clock::time_point start = Clock::now();
  wait.update(start);  // forward passes far more often than the interval: no measure
  wait.update(start + AdaptiveWait::kCheckEvery / 2);
  EXPECT_EQ(rt.measured, 0u);
  wait.update(start + AdaptiveWait::kCheckEvery * 2);
  EXPECT_EQ(rt.measured, 1u);
  EXPECT_EQ(wait.spin_ms(), AdaptiveWait::kBusySpinMs);
}

}  // namespace
