// run_keeping_team_awake (libnn/src/ops/detail/thread_scope.hpp): the work runs once, on the calling thread's
// data, inside a team region only in an inference pass while the flag is set, and its exception reaches the
// caller.
#include <gtest/gtest.h>
#include <omp.h>

#include <stdexcept>

#include "nn/graph/grad_mode.hpp"
#include "ops/detail/thread_scope.hpp"

namespace {

struct FlagScope {  // sets the flag for one test, as TeamMode would on a quiet machine
  explicit FlagScope(bool on) : saved(nn::ops::team_awake_wanted().load()) { nn::ops::team_awake_wanted() = on; }
  ~FlagScope() { nn::ops::team_awake_wanted() = saved; }
  bool saved;
};

// How many times the work ran, and whether inside a region.
struct Runs {
  int count = 0;
  bool in_region = false;
};
Runs run_once() {
  Runs r;
  nn::ops::run_keeping_team_awake([&] {
    ++r.count;
    r.in_region = omp_in_parallel();
    EXPECT_EQ(omp_get_thread_num(), 0);
  });
  return r;
}

TEST(TeamAwake, InferenceOnAQuietTeamRunsTheWorkOnceInARegion) {
  if (omp_get_max_threads() < 2) GTEST_SKIP() << "one OpenMP thread";
  FlagScope flag(true);
  nn::NoGradScope no_grad;
  const Runs r = run_once();
  EXPECT_EQ(r.count, 1);
  EXPECT_TRUE(r.in_region);
}

TEST(TeamAwake, OtherwiseTheWorkRunsPlainly) {
  {
    FlagScope flag(false);
    nn::NoGradScope no_grad;
    const Runs r = run_once();
    EXPECT_EQ(r.count, 1);
    EXPECT_FALSE(r.in_region);
  }
  FlagScope flag(true);  // gradients on: training keeps its small work outside regions
  const Runs r = run_once();
  EXPECT_EQ(r.count, 1);
  EXPECT_FALSE(r.in_region);
}

TEST(TeamAwake, AnExceptionReachesTheCaller) {
  FlagScope flag(true);
  nn::NoGradScope no_grad;
  EXPECT_THROW(nn::ops::run_keeping_team_awake([] { throw std::runtime_error("bad"); }), std::runtime_error);
}

}  // namespace
