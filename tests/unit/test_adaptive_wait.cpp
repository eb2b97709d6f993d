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

TEST(AdaptiveWait, SleepsAfterBusyChecksInARowAndSpinsAgainAfterQuietChecksInARow) {
  FakeRuntime rt;
  // busy, busy (kBusyChecksToStart), then quiet checks in a row, one fewer than end a busy spell, a busy one, then
  // enough quiet ones
  rt.loads = {false, false};
  for (int pass = 0; pass < 2; ++pass) {
    rt.loads.insert(rt.loads.end(), size_t(AdaptiveWait::kQuietChecksAfterBusy - 1), true);
    if (pass == 0) rt.loads.push_back(false);
  }
  rt.loads.push_back(true);
  AdaptiveWait wait = rt.make();
  Clock::time_point t = Clock::now();
  std::vector<int> spins;
  for (size_t i = 0; i < rt.loads.size(); ++i) {
    wait.update(t += AdaptiveWait::kCheckEvery);
    spins.push_back(wait.spin_ms());
  }
  EXPECT_EQ(rt.measured, rt.loads.size());
  // two busy: 0; busy again and through the short quiet run: no call; the full quiet run: back to the spin.
  EXPECT_EQ(rt.set,
            (std::vector<int>{AdaptiveWait::kQuietSpinMs, AdaptiveWait::kBusySpinMs, AdaptiveWait::kQuietSpinMs}));
  EXPECT_EQ(spins.back(), AdaptiveWait::kQuietSpinMs);
  EXPECT_EQ(spins[spins.size() - 2], AdaptiveWait::kBusySpinMs);  // one quiet check short
}

TEST(AdaptiveWait, OneBusyCheckAmongQuietOnesKeepsTheSpin) {
  FakeRuntime rt;
  rt.loads = {true, false, true, true, false, true};  // isolated bursts of waiting, as on an idle machine
  AdaptiveWait wait = rt.make();
  Clock::time_point t = Clock::now();
  for (size_t i = 0; i < rt.loads.size(); ++i) {
    wait.update(t += AdaptiveWait::kCheckEvery);
    EXPECT_EQ(wait.spin_ms(), AdaptiveWait::kQuietSpinMs) << "check " << i;
  }
  EXPECT_EQ(rt.set, std::vector<int>{AdaptiveWait::kQuietSpinMs});
  static_assert(AdaptiveWait::kBusyChecksToStart == 2, "the loads above hold single busy checks");
}

TEST(AdaptiveWait, MeasuresAtMostEveryCheckInterval) {
  FakeRuntime rt;
  rt.loads = {false, false};
  AdaptiveWait wait = rt.make();
  const Clock::time_point start = Clock::now();
  wait.update(start);  // forward passes far more often than the interval: no measure
  wait.update(start + AdaptiveWait::kCheckEvery / 2);
  EXPECT_EQ(rt.measured, 0u);
  wait.update(start + AdaptiveWait::kCheckEvery * 2);
  EXPECT_EQ(rt.measured, 1u);
  wait.update(start + AdaptiveWait::kCheckEvery * 2 + AdaptiveWait::kCheckEvery / 2);
  EXPECT_EQ(rt.measured, 1u);
  wait.update(start + AdaptiveWait::kCheckEvery * 3);
  EXPECT_EQ(rt.measured, 2u);
  EXPECT_EQ(wait.spin_ms(), AdaptiveWait::kBusySpinMs);
}

}  // namespace
