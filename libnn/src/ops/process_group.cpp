// The process group's all-reduce registered for SyncBatchNormalization.
#include "nn/ops/process_group.hpp"

#include <mutex>
#include <utility>

namespace nn::ops {

namespace {
std::mutex g_mutex;
ProcessAllReduceSum& current() {
  static ProcessAllReduceSum sum;
  return sum;
}
}  // namespace

void set_process_all_reduce_sum(ProcessAllReduceSum sum) {
  std::lock_guard<std::mutex> lock(g_mutex);
  current() = std::move(sum);
}

ProcessAllReduceSum process_all_reduce_sum() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return current();
}

}  // namespace nn::ops
