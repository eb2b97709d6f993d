// nn::enable_adaptive_wait: AdaptiveWait over the machine load (QuietMeter) and libomp's kmp_set_blocktime.
#include "ops/detail/adaptive_wait.hpp"

#include <dlfcn.h>
#include <omp.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>

#include "nn/core/adaptive_wait.hpp"
#include "ops/detail/machine_load.hpp"

namespace nn::ops {

AdaptiveWait::AdaptiveWait(std::function<void(int)> set_spin_ms, std::function<bool()> quiet)
    : set_spin_ms_(std::move(set_spin_ms)),
      quiet_(std::move(quiet)),
      last_check_(std::chrono::steady_clock::now()),
      spin_ms_(kQuietSpinMs) {  // an idle machine is the first guess, as for the convolutions' team
  set_spin_ms_(spin_ms_);
}

void AdaptiveWait::update(std::chrono::steady_clock::time_point now) {
  if (now - last_check_ < kCheckEvery) return;
  last_check_ = now;
  const bool quiet = quiet_();
  quiet_checks_ = quiet ? quiet_checks_ + 1 : 0;
  busy_checks_ = quiet ? 0 : busy_checks_ + 1;
  const bool busy =
      spin_ms_ == kBusySpinMs ? quiet_checks_ < kQuietChecksAfterBusy : busy_checks_ >= kBusyChecksToStart;
  const int spin = busy ? kBusySpinMs : kQuietSpinMs;
  if (spin == spin_ms_) return;
  spin_ms_ = spin;
  set_spin_ms_(spin);
}

using SetBlocktime = void (*)(int);
namespace {
std::atomic<SetBlocktime> g_set_blocktime{nullptr};  // libomp's, once enabled
std::atomic<bool> g_machine_busy{false};             // the latest check's finding (nn::machine_busy)
}  // namespace

void follow_machine_load() {
  const SetBlocktime set_blocktime = g_set_blocktime.load(std::memory_order_relaxed);
  if (!set_blocktime || omp_in_parallel()) return;  // the spin time is the forking thread's setting
  static std::mutex busy;                           // one pass at a time measures; the others go on
  std::unique_lock<std::mutex> lock(busy, std::try_to_lock);
  if (!lock.owns_lock()) return;
  static QuietMeter meter;
  static AdaptiveWait wait([set_blocktime](int ms) { set_blocktime(ms); }, [] { return meter.measure(); });
  static const bool started = meter.measure();  // the first measure only starts the count
  (void)started;
  wait.update(std::chrono::steady_clock::now());
  g_machine_busy.store(wait.spin_ms() == AdaptiveWait::kBusySpinMs, std::memory_order_relaxed);
}

}  // namespace nn::ops

namespace nn {

bool machine_busy() { return ops::g_machine_busy.load(std::memory_order_relaxed); }

bool enable_adaptive_wait() {
  const auto set_blocktime = reinterpret_cast<ops::SetBlocktime>(dlsym(RTLD_DEFAULT, "kmp_set_blocktime"));
  ops::g_set_blocktime.store(set_blocktime, std::memory_order_relaxed);
  if (!set_blocktime) return false;
  // libomp reads it when it starts (at its first use), so the spin is short before the first forward pass too.
  setenv("KMP_BLOCKTIME", std::to_string(ops::AdaptiveWait::kQuietSpinMs).c_str(), 1);
  return true;
}

}  // namespace nn
