// How long this process's threads have waited for a CPU: the measure of a busy machine that the team-size
// choice of inference convolutions reads (conv_dnnl_infer.cpp).
#pragma once
#include <cstdint>

namespace nn::ops {

// Nanoseconds this process's threads have spent runnable but not running (the second field of each
// /proc/self/task/<tid>/schedstat), or -1 where the kernel does not say.
int64_t run_queue_wait_ns();

}  // namespace nn::ops
