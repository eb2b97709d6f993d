// The single-process Communicator and the process-wide communicator setting.
#include "nn/train/communicator.hpp"

#include <cstdint>
#include <cstdlib>
#include <mutex>

#include "nn/ops/process_group.hpp"

namespace nn::train {

namespace {

std::mutex g_mutex;
std::shared_ptr<Communicator>& current() {
  static std::shared_ptr<Communicator> communicator = std::make_shared<SingleProcessCommunicator>();
  return communicator;
}

}  // namespace

void Communicator::broadcast_string(std::string& text, int root) {
  uint64_t n = text.size();
  broadcast(&n, sizeof(n), root);
  text.resize(size_t(n));
  if (n > 0) broadcast(text.data(), size_t(n), root);
}

void SingleProcessCommunicator::abort(int code) { std::_Exit(code); }

Communicator& process_communicator() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return *current();
}

void set_process_communicator(std::shared_ptr<Communicator> communicator) {
  std::lock_guard<std::mutex> lock(g_mutex);
  current() = communicator ? std::move(communicator) : std::make_shared<SingleProcessCommunicator>();
  // SyncBatchNormalization's sum (ops know no communicator); a communicator's size is fixed.
  ops::ProcessAllReduceSum sum;
  if (current()->distributed()) sum = [c = current()](double* data, size_t n) { c->all_reduce_sum(data, n); };
  ops::set_process_all_reduce_sum(std::move(sum));
}

}  // namespace nn::train
