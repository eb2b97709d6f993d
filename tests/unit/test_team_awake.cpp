// run_keeping_team_awake (libnn/src/ops/detail/thread_scope.hpp): the work runs once, on the calling thread's
// data, inside a team region only in an inference pass while the flag is set, and its exception reaches the
// caller; the flag also lowers the sizes from which parallel_ranges and threads_for_flops split.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "nn/graph/grad_mode.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/detail/thread_scope.hpp"

namespace {

struct FlagScope {  // sets the flag for one test, as TeamMode would on a quiet machine
  explicit FlagScope(bool on) : saved(nn::ops::team_awake_wanted().load()) { nn::ops::team_awake_wanted() = on; }
  ~FlagScope() { nn::ops::team_awake_wanted() = saved; }
  bool saved;
};

// Runs counting work once, with the flag set or not and gradients on or off, and checks that it ran once,
// inside a team region or not.
void expect_one_run(bool flag_on, bool grad_on, bool in_region) {
  FlagScope flag(flag_on);
  std::optional<nn::NoGradScope> no_grad;
  if (!grad_on) no_grad.emplace();
  int count = 0;
  bool region = false;
  nn::ops::run_keeping_team_awake([&] {
    ++count;
    region = omp_in_parallel();
    EXPECT_EQ(omp_get_thread_num(), 0);
  });
  EXPECT_EQ(count, 1);
  EXPECT_EQ(region, in_region) << "flag " << flag_on << ", gradients " << grad_on;
}

TEST(TeamAwake, InferenceOnAQuietTeamRunsTheWorkOnceInARegion) {
  if (omp_get_max_threads() < 2) GTEST_SKIP() << "one OpenMP thread";
  expect_one_run(/*flag_on=*/true, /*grad_on=*/false, /*in_region=*/true);
}

TEST(TeamAwake, OtherwiseTheWorkRunsPlainly) {
  expect_one_run(/*flag_on=*/false, /*grad_on=*/false, /*in_region=*/false);
  expect_one_run(/*flag_on=*/true, /*grad_on=*/true, /*in_region=*/false);  // training's small work
}

// With the flag set, inference splits work from kQuietParallelThreshold elements; otherwise from
// kParallelThreshold.
TEST(TeamAwake, QuietInferenceSplitsSmallerWork) {
  const int threads = omp_get_max_threads();
  const int64_t work = nn::ops::kQuietParallelThreshold;
  ASSERT_LT(work, nn::ops::kParallelThreshold);
  {
    FlagScope flag(true);
    nn::NoGradScope no_grad;
    EXPECT_EQ(nn::ops::parallel_range_count(work), threads);
    EXPECT_EQ(nn::ops::parallel_range_count(work - 1), 1);
  }
  FlagScope flag(false);
  nn::NoGradScope no_grad;
  EXPECT_EQ(nn::ops::parallel_range_count(work), 1);
  EXPECT_EQ(nn::ops::parallel_range_count(nn::ops::kParallelThreshold), threads);
}

// Likewise GEMMs and convolutions on threads_for_flops: from kQuietParallelMinFlops with the flag, from
// kParallelMinFlops otherwise (and with gradients on).
TEST(TeamAwake, QuietInferenceSplitsSmallerProducts) {
  const int threads = omp_get_max_threads();
  const double flops = 2 * nn::ops::kQuietParallelMinFlops;
  ASSERT_LT(flops, nn::ops::kParallelMinFlops);
  {
    FlagScope flag(true);
    nn::NoGradScope no_grad;
    EXPECT_EQ(nn::ops::threads_for_flops(flops), std::min(threads, 2));
    EXPECT_EQ(nn::ops::threads_for_flops(nn::ops::kQuietParallelMinFlops / 2), 1);
  }
  FlagScope flag(true);  // gradients on: training keeps the larger size
  EXPECT_EQ(nn::ops::threads_for_flops(flops), 1);
  EXPECT_EQ(nn::ops::threads_for_flops(nn::ops::kParallelMinFlops), 1);
  EXPECT_EQ(nn::ops::threads_for_flops(2 * nn::ops::kParallelMinFlops), std::min(threads, 2));
}

TEST(TeamAwake, AnExceptionReachesTheCaller) {
  FlagScope flag(true);
  nn::NoGradScope no_grad;
  EXPECT_THROW(nn::ops::run_keeping_team_awake([] { throw std::runtime_error("bad"); }), std::runtime_error);
}

}  // namespace
