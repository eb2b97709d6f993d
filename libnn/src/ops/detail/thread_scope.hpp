// Team size from work size: small work stays on the calling thread, where no barrier can wait for a worker
// the scheduler has not run (on a busy machine that wait costs more than the split saves).
#pragma once
#include <omp.h>

#include <algorithm>

namespace nn::ops {

// Floating-point operations below which a GEMM or convolution runs on one thread: about 0.2 ms of one
// core's work, several times the cost of waking a sleeping OpenMP worker on a loaded core.
constexpr double kParallelMinFlops = 8e6;

// Threads for `flops` of work: 1 below kParallelMinFlops (or inside a parallel region), then one more
// thread per kParallelMinFlops up to the OpenMP team size.
inline int threads_for_flops(double flops) {
  if (omp_in_parallel() || flops < kParallelMinFlops) return 1;
  const int max_threads = omp_get_max_threads();
  return int(std::min<double>(max_threads, flops / kParallelMinFlops));
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
