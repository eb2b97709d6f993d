// The single-process Communicator and the process-wide communicator setting.
#include "nn/train/communicator.hpp"

#include <cstdint>
#include <cstdlib>
#include <mutex>

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
}

}  // namespace nn::train
