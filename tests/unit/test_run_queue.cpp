// run_queue_wait_ns and QuietMeter (libnn/src/ops/detail/run_queue.hpp), the busy-machine measure of the
// convolutions' team choice and the workers' spin time: two spinning threads held to one CPU must show time
// spent waiting for it, and a sleeping one none.
#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "ops/detail/run_queue.hpp"

namespace {

void spin_for(std::chrono::milliseconds span) {
  const auto end = std::chrono::steady_clock::now() + span;
  while (std::chrono::steady_clock::now() < end) {
  }
}

TEST(RunQueue, ThreadsSharingOneCpuWaitForIt) {
  const int64_t before = nn::ops::run_queue_wait_ns();
  if (before < 0) GTEST_SKIP() << "this kernel keeps no schedstat";
  cpu_set_t saved, one;
  ASSERT_EQ(sched_getaffinity(0, sizeof saved, &saved), 0);
  CPU_ZERO(&one);
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &saved)) {
      CPU_SET(c, &one);
      break;
    }
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);  // this thread, and the one it starts, on one CPU
  std::thread rival([] { spin_for(std::chrono::milliseconds(200)); });
  spin_for(std::chrono::milliseconds(200));
  const int64_t during = nn::ops::run_queue_wait_ns();  // the rival is still listed
  rival.join();
  sched_setaffinity(0, sizeof saved, &saved);
  EXPECT_GT(during - before, 20'000'000);  // of ~400 ms of work for 200+ ms of CPU, well over 20 ms waited
}

TEST(RunQueue, QuietMeterSaysQuietOnlyAfterAFirstMeasure) {
  if (nn::ops::run_queue_wait_ns() < 0) GTEST_SKIP() << "this kernel keeps no schedstat";
  nn::ops::QuietMeter meter;
  EXPECT_FALSE(meter.measure());                                // nothing to compare with yet
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // a sleeping thread waits for no CPU
  EXPECT_TRUE(meter.measure());
}

}  // namespace
