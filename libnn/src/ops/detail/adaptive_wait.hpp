// The spin-time choice behind nn::enable_adaptive_wait, with its clock, load measure and runtime call passed in.
#pragma once
#include <chrono>
#include <functional>

#include "ops/detail/machine_load.hpp"

namespace nn::ops {

// Waiting workers spin while a new region may come soon; on a busy machine that spin burns the time slice the
// thread they wait for needs. Measured with LLVM's libomp on 2 cores (two busy loops per core for "busy"):
// LeNet training quiet 1.42 s with a 1 ms spin, 1.94 s sleeping at once; busy 26.5 s with 1 ms, 7.8 s
// sleeping at once (libgomp with GOMP_SPINCOUNT=1000: 8.2 s).
class AdaptiveWait {
 public:
  static constexpr int kQuietSpinMs = 1, kBusySpinMs = 0;
  // The span of one load measure: a measure sooner would repeat the last verdict.
  static constexpr std::chrono::milliseconds kCheckEvery = QuietMeter::kMinSpan;
  // Quiet checks in a row that end a busy spell: under other processes' uneven load (builds), one window in which
  // they happened to leave the CPUs ran the team (and mid-sized networks off the calling thread, nn::machine_busy)
  // for a few dozen passes, each waiting for a worker the scheduler had not run.
  static constexpr int kQuietChecksAfterBusy = 4;
  // Busy checks in a row that start a busy spell: a burst of another process (a compiler starting, a kernel
  // thread) fills one window now and then; a single one turned an idle NHWC SqueezeNet's workers to sleeping
  // for 200 ms at a time (a median of 0.30-0.50 ms per run instead of 0.28-0.32). With one busy loop per core
  // every window is busy.
  static constexpr int kBusyChecksToStart = 2;

  // set_spin_ms: the runtime's call (kmp_set_blocktime); quiet: whether the machine was quiet since last asked.
  AdaptiveWait(std::function<void(int)> set_spin_ms, std::function<bool()> quiet);
  // Measures the load when kCheckEvery has passed since the last measure, and sets the spin time it calls for
  // (the busy one from kBusyChecksToStart busy checks in a row until kQuietChecksAfterBusy quiet ones in a row).
  void update(std::chrono::steady_clock::time_point now);
  int spin_ms() const { return spin_ms_; }

 private:
  std::function<void(int)> set_spin_ms_;
  std::function<bool()> quiet_;
  std::chrono::steady_clock::time_point last_check_;
  int spin_ms_;
  int quiet_checks_ = 0;  // quiet checks in a row, up to the latest
  int busy_checks_ = 0;   // busy checks in a row, up to the latest
};

// Called by each forward pass outside parallel regions: AdaptiveWait::update, once nn::enable_adaptive_wait ran
// (the first call sets the quiet spin time and starts the load count).
void follow_machine_load();

}  // namespace nn::ops
