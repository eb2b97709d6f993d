// Timing statistics for `nncli profile`: percentiles, outliers, warm-up and measurement loops.
#include "profile_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace nncli::profile {

namespace {

// Nearest-rank percentile of sorted samples.
double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0.0;
  const size_t rank = size_t(std::ceil(p / 100.0 * double(sorted.size())));
  return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

Stats summarize(std::vector<double> samples) {
  Stats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.count = int64_t(samples.size());
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / double(samples.size());
  s.median = median_of(samples);
  s.p90 = percentile(samples, 90);
  s.p99 = percentile(samples, 99);
  s.min = samples.front();
  s.max = samples.back();
  std::vector<double> deviations;
  deviations.reserve(samples.size());
  for (double x : samples) deviations.push_back(std::fabs(x - s.median));
  const double mad = 1.4826 * median_of(std::move(deviations));
  const double limit = s.median + 5.0 * std::max(mad, 0.01 * s.median);
  s.outliers = std::count_if(samples.begin(), samples.end(), [&](double x) { return x > limit; });
  return s;
}

WarmupReport warm_up(const std::function<double()>& step, const LoopSettings& settings) {
  WarmupReport report;
  if (settings.warmup <= 0) return report;
  std::vector<double> times;
  const auto t0 = Clock::now();
  constexpr int64_t kMaxRuns = 200;
  constexpr double kMaxMs = 10000.0;
  while (report.iterations < kMaxRuns) {
    times.push_back(step());
    ++report.iterations;
    if (report.iterations < std::max<int64_t>(settings.warmup, 10)) continue;
    const size_t n = times.size();
    const double recent = median_of({times.end() - 5, times.end()});
    const double before = median_of({times.begin() + long(n - 10), times.end() - 5});
    if (report.iterations >= settings.warmup && std::fabs(recent - before) <= 0.05 * before) {
      report.stable = true;
      break;
    }
    if (ms_since(t0) > kMaxMs && report.iterations >= settings.warmup) break;
  }
  return report;
}

int64_t measure(const std::function<void()>& step, const LoopSettings& settings) {
  const auto t0 = Clock::now();
  int64_t runs = 0;
  while (runs < settings.max_iterations) {
    const bool enough_runs = settings.iterations <= 0 || runs >= settings.iterations;
    const bool enough_time = settings.duration_s <= 0 || ms_since(t0) >= settings.duration_s * 1000.0;
    if (runs > 0 && enough_runs && enough_time) break;
    step();
    ++runs;
  }
  return runs;
}

}  // namespace nncli::profile
