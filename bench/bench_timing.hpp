// The benchmark programs' timer: the best of `rounds` mean times per call of a step, after warm-up calls.
#pragma once
#include <algorithm>
#include <chrono>
#include <functional>

namespace bench {

// Seconds per call: `warmups` untimed calls, then `rounds` rounds of at least seconds / rounds each; the
// lowest mean of a round.
inline double best_seconds_per_call(const std::function<void()>& step, double seconds, int warmups, int rounds) {
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < warmups; ++i) step();
  double best = 1e30;
  for (int round = 0; round < rounds; ++round) {
    int n = 0;
    const auto t0 = Clock::now();
    double elapsed = 0;
    do {
      step();
      ++n;
      elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    } while (elapsed < seconds / rounds);
    best = std::min(best, elapsed / n);
  }
  return best;
}

}  // namespace bench
