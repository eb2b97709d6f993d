// How long this process's threads have waited for a CPU: the measure of a busy machine that the team-size
// choice of inference convolutions (conv_dnnl_infer.cpp) and the workers' spin time (adaptive_wait.cpp) read.
#pragma once
#include <chrono>
#include <cstdint>

namespace nn::ops {

// Nanoseconds this process's threads have spent runnable but not running (the second field of each
// /proc/self/task/<tid>/schedstat), or -1 where the kernel does not say.
int64_t run_queue_wait_ns();

// Whether the machine was quiet since the previous measure: this process's threads waited for a CPU less than
// kQuietWait of the wall time in between. The first measure, and any where the kernel does not say, is not quiet.
class QuietMeter {
 public:
  static constexpr double kQuietWait = 0.05;
  bool measure();

 private:
  int64_t last_wait_ns_ = -1;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace nn::ops
