// Timing statistics for `nncli profile`: per-item samples, percentiles, outliers, and the
// warm-up-until-stable / measure-for-N-iterations-or-seconds loop.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace nncli::profile {

using Clock = std::chrono::steady_clock;
inline double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Summary of one item's samples (milliseconds).
struct Stats {
  int64_t count = 0;
  double mean = 0, median = 0, p90 = 0, p99 = 0, min = 0, max = 0;
  // Samples above median + 5 * (scaled MAD): counted (not dropped) so a noisy machine shows.
  int64_t outliers = 0;
};
Stats summarize(std::vector<double> samples_ms);

// How long to measure: warm-up iterations (at least `warmup`, then until the per-iteration time is stable,
// bounded), then `iterations` runs and/or `duration_s` seconds (both when both are set: the later wins).
struct LoopSettings {
  int64_t warmup = 2;
  int64_t iterations = 100;
  double duration_s = 1.0;
  int64_t max_iterations = 100000;
};

struct WarmupReport {
  int64_t iterations = 0;
  bool stable = false;
};

// Runs step (which returns its own wall time in ms) until stable: the median of the last 5 runs within 5%
// of the median of the 5 before, after at least settings.warmup runs; at most 200 runs or 10 seconds.
WarmupReport warm_up(const std::function<double()>& step, const LoopSettings& settings);

// Runs step for the measured phase; returns the number of runs.
int64_t measure(const std::function<void()>& step, const LoopSettings& settings);

}  // namespace nncli::profile
