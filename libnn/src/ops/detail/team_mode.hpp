// TeamMode: whether inference convolutions, affine layers and matrix products run on one thread or the whole
// team, one process-wide choice made by timing them (team_mode.cpp).
#pragma once
#include <omp.h>

#include <chrono>
#include <mutex>

#include "nn/graph/grad_mode.hpp"
#include "ops/detail/machine_load.hpp"

namespace nn::ops {

// Work below which a team is not even tried: splitting costs more than it could save. The team's workers spin
// on a quiet machine (adaptive_wait.hpp), so a split costs ~1 us: at 1e6 MobileNetV2 b1 ran five depthwise
// convolutions of 7x7 (0.85 MFLOP, ~11 us each) on one thread while the other waited; at 2e5 it took 1.99 ->
// 1.90 ms and EfficientNet b1 3.54 -> 3.26 (medians of 6 alternating runs; 5e4 gained nothing more, 5e5 less
// on EfficientNet; busy, both within 1 %: TeamMode runs one thread there).
constexpr double kTeamTrialMinFlops = 2e5;

// One thread or the whole team, for every timed inference call at once (convolutions, and the GEMMs of affine
// layers and matrix products: a transformer has no convolution), chosen by timing windows of calls in each mode:
// on a busy machine a team waits at its barriers for workers the scheduler has not run and one thread wins; on an
// idle one the team wins. (A choice per call site would time the team's wake-up after a run of one-thread calls
// and never leave one thread.) The slower mode is tried again after 8 windows, and after twice as many each time
// it loses again (up to 64): a fixed 1 in 8 cost ResNet-like models ~10 % on an idle machine, where one thread is
// ~1.8x slower. A change of load changes the choice. A window is 128 calls, or fewer (at least 16) once they took
// 400 ms: ResNet-18 at batch 32 on a busy machine made 128 calls last seconds. Windows are scored in time per
// flop, as a short one holds a different mix; the first window, run cold (first executions, caches), scores
// nothing, and a try of the slower mode replaces that mode's old score (a cold first team window kept the NHWC
// SqueezeNet on one thread for 8+16+32+64 windows). Whether the machine is busy is also measured: the CPU time
// other processes took (machine_load.hpp). Once one thread has lost to the team, windows in which others took
// hardly any (a quiet machine) try one thread no more, and the first quiet window after busy ones in one-thread
// mode tries the team at once. A window's end sets team_awake_wanted (thread_scope.hpp): team mode on a quiet
// machine.
class TeamMode {
 public:
  static TeamMode& instance();
  bool team();
  // A call of `flops` that took `ms` in the mode team() gave.
  void record(double ms, double flops);

 private:
  // The mode of the next window.
  void choose(bool team_faster, bool was_quiet);

  static constexpr int kWindow = 128, kMinWindow = 16;  // timed calls per window
  static constexpr double kWindowMs = 400;              // a window of this many ms ends after kMinWindow
  static constexpr int kMinApart = 8, kMaxApart = 64;   // windows between tries of the slower mode

  std::mutex mutex_;
  QuietMeter quiet_meter_;  // since the last window
  bool quiet_ = false;
  bool team_ = true;  // an idle machine is the first guess
  bool trying_ = false;
  bool warmed_up_ = false;
  double sum_ms_ = 0, sum_flops_ = 0, score_[2] = {0, 0};
  int count_ = 0, since_try_ = 0, tries_apart_ = kMinApart;
};

// Runs work(threads) for an inference call of `flops` whose split TeamMode decides: threads is 1 in one-thread
// mode and the team size in team mode; the call is timed into TeamMode. Small work, training (gradients on), a
// region already parallel or a team of one run work(omp_get_max_threads()) untimed, as before TeamMode knew of
// them.
template <class Work>
void run_in_team_mode(double flops, Work&& work) {
  const int threads = omp_get_max_threads();
  if (grad_enabled() || omp_in_parallel() || threads == 1 || flops < kTeamTrialMinFlops) return work(threads);
  TeamMode& mode = TeamMode::instance();
  const bool team = mode.team();
  const auto t0 = std::chrono::steady_clock::now();
  work(team ? threads : 1);
  mode.record(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(), flops);
}

}  // namespace nn::ops
