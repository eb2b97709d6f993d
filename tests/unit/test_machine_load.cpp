// read_cpu_ticks, quiet_share and QuietMeter (libnn/src/ops/detail/machine_load.hpp), the busy-machine measure of
// the convolutions' team choice and the workers' spin time: this process's own work is not another's, and other
// processes spinning on every CPU make the machine busy.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <thread>
#include <vector>

#include "ops/detail/machine_load.hpp"

namespace {

using Clock = std::chrono::steady_clock;

void spin_for(std::chrono::milliseconds span) {
  const auto end = Clock::now() + span;
  while (Clock::now() < end) {
  }
}

TEST(MachineLoad, OwnWorkCountsInBothTicks) {
  const nn::ops::CpuTicks before = nn::ops::read_cpu_ticks();
  if (before.machine_busy < 0 || before.own < 0) GTEST_SKIP() << "this kernel shows no /proc/stat";
  timespec start{}, now{};  // 300 ms of this thread's CPU time, however long other processes make that take
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  do clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  while ((now.tv_sec - start.tv_sec) * 1e9 + double(now.tv_nsec - start.tv_nsec) < 3e8);
  const nn::ops::CpuTicks after = nn::ops::read_cpu_ticks();
  const double ticks = 0.3 * double(sysconf(_SC_CLK_TCK));
  EXPECT_GE(double(after.own - before.own), 0.5 * ticks);
  EXPECT_GE(after.machine_busy - before.machine_busy, after.own - before.own - 2);  // ticks are sampled
}

TEST(MachineLoad, QuietUnderHalfACpuOfOthers) {
  EXPECT_TRUE(nn::ops::quiet_share(0, 10));
  EXPECT_TRUE(nn::ops::quiet_share(-2, 10));  // the two counts' sampling may cross
  EXPECT_TRUE(nn::ops::quiet_share(4, 10));
  EXPECT_FALSE(nn::ops::quiet_share(5, 10));
  EXPECT_FALSE(nn::ops::quiet_share(17, 10));  // two busy loops per core of a 2-core machine
}

TEST(MachineLoad, OtherProcessesSpinningMakeItBusy) {
  if (nn::ops::read_cpu_ticks().machine_busy < 0) GTEST_SKIP() << "this kernel shows no /proc/stat";
  nn::ops::QuietMeter meter;
  EXPECT_FALSE(meter.measure());  // nothing to compare with yet
  std::vector<pid_t> rivals;
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  for (long i = 0; i < cpus; ++i) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      spin_for(std::chrono::milliseconds(400));
      _exit(0);
    }
    rivals.push_back(pid);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // this process sleeps while they spin
  const bool quiet = meter.measure();
  for (pid_t pid : rivals) waitpid(pid, nullptr, 0);
  EXPECT_FALSE(quiet);
}

TEST(MachineLoad, AMeasureWithinTheMinimumSpanRepeatsTheVerdict) {
  nn::ops::QuietMeter meter;
  const bool first = meter.measure();
  EXPECT_EQ(meter.measure(), first);  // no time passed: the same verdict, not a measure over a few ticks
}

}  // namespace
