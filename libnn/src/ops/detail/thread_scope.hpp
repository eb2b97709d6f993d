// Team size from work size: small work stays on the calling thread, where no barrier can wait for a worker
// the scheduler has not run (on a busy machine that wait costs more than the split saves).
#pragma once
#include <omp.h>

#include <algorithm>
#include <atomic>

#include "nn/core/first_exception.hpp"
#include "nn/graph/grad_mode.hpp"

namespace nn::ops {

// Floating-point operations below which a GEMM or convolution runs on one thread: about 0.2 ms of one
// core's work, several times the cost of waking a sleeping OpenMP worker on a loaded core.
constexpr double kParallelMinFlops = 8e6;

// Set while inference runs its team on a quiet machine (TeamMode, team_mode.hpp).
inline std::atomic<bool>& team_awake_wanted() {
  static std::atomic<bool> wanted{false};
  return wanted;
}

// Whether this thread runs an inference pass (gradients off) while the convolutions' team runs on a quiet machine.
inline bool quiet_team_inference() {
  return team_awake_wanted().load(std::memory_order_relaxed) && !grad_enabled();
}

// kParallelMinFlops while inference runs on a quiet machine's spinning team (quiet_team_inference), where a
// split costs no wake-up. EfficientNet's 1280 -> 1000 classifier at batch 1 (2.6 MFLOP, its 5 MB of weights read
// from memory) took 0.16 ms on one thread and 0.10 ms on two.
constexpr double kQuietParallelMinFlops = 1e6;

// Threads for `flops` of work: 1 below kParallelMinFlops (kQuietParallelMinFlops in quiet team inference) or
// inside a parallel region, then one more thread per that many flops up to the OpenMP team size.
inline int threads_for_flops(double flops) {
  const double min_flops = quiet_team_inference() ? kQuietParallelMinFlops : kParallelMinFlops;
  if (omp_in_parallel() || flops < min_flops) return 1;
  const int max_threads = omp_get_max_threads();
  return int(std::min<double>(max_threads, flops / min_flops));
}

// Runs `work`, which stays on the calling thread, inside a team region whose other threads only wait at its
// end, when an inference pass (gradients off) runs its team on a quiet machine. Idle OpenMP workers spin 20-50
// us (GOMP_SPINCOUNT=1000) and then sleep, and waking one cost ~21 us here, paid by the next split region:
// EfficientNet's squeeze-excite blocks (a pooling, two small convolutions, a product: 20-40 us on one thread)
// let the worker fall asleep about 12 times per inference. With this, 243 of 23.7k regions followed a gap of
// 20-60 us instead of 3,073 of 13.0k. That is libgomp's case: on LLVM's libomp, which nncli runs on, quiet
// workers spin 1 ms (adaptive_wait.hpp) and this made no difference (MobileNetV2 b1 1.917 vs 1.929 ms).
template <class Work>
inline void run_keeping_team_awake(Work&& work) {
  if (!quiet_team_inference() || omp_in_parallel() || omp_get_max_threads() < 2) {
    work();
    return;
  }
  FirstException failure;  // none may leave the region
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) failure.run(work);
  }
  failure.rethrow();
}

// Sets the OpenMP team size for regions this thread starts (oneDNN, OpenBLAS's OpenMP build and libnn's
// loops all read it) and restores it on scope exit.
class ThreadScope {
 public:
  explicit ThreadScope(int threads) : saved_(omp_get_max_threads()), threads_(std::max(1, threads)) {
    if (threads_ != saved_) omp_set_num_threads(threads_);
  }
  ~ThreadScope() {
    if (threads_ != saved_) omp_set_num_threads(saved_);
  }
  ThreadScope(const ThreadScope&) = delete;
  ThreadScope& operator=(const ThreadScope&) = delete;

 private:
  int saved_, threads_;
};

}  // namespace nn::ops
