// How much CPU other processes took from this machine: the measure of a busy machine that the team-size choice
// of inference convolutions (conv_dnnl_infer.cpp) and the workers' spin time (adaptive_wait.cpp) read.
#pragma once
#include <chrono>
#include <cstdint>

namespace nn::ops {

// Clock ticks (USER_HZ) the machine's CPUs spent busy (user, nice, system, irq, softirq, steal: /proc/stat) and
// this process spent on them (utime + stime: /proc/self/stat); -1 where the kernel does not say.
struct CpuTicks {
  int64_t machine_busy = -1, own = -1;
};
CpuTicks read_cpu_ticks();

// Whether other processes' `others` ticks over `wall_ticks` of wall time leave the machine quiet: under half a
// CPU. Ticks are sampled, so a quiet machine shows a stray tick or two per 100 ms; one busy loop shows about ten.
bool quiet_share(int64_t others, double wall_ticks);

// Whether the machine was quiet over the span since the previous measure: the ticks other processes took (the
// machine's busy ticks less this process's) by quiet_share. Waiting for a CPU, which this measured before, also
// counts a sleeping worker's wake-up on a virtual machine (tens of microseconds each): a quiet 2-core VM read as
// busy, and workers that then slept after each parallel region woke more and kept it so (RegNet b1 ran at its
// one-thread time, 12 ms instead of 8.4). A measure less than kMinSpan after the previous one repeats its verdict
// (a few ticks say little); the first measure, and any where the kernel does not say, is not quiet.
class QuietMeter {
 public:
  static constexpr std::chrono::milliseconds kMinSpan{100};
  bool measure();

 private:
  CpuTicks last_;
  std::chrono::steady_clock::time_point last_time_{};
  bool quiet_ = false;
};

}  // namespace nn::ops
