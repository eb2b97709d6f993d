// The process-wide single-run flag of single_run.hpp.
#include "nn/core/single_run.hpp"

#include <atomic>

namespace nn {
namespace {
std::atomic<bool> g_single_run{false};
}  // namespace

void set_single_run(bool on) { g_single_run.store(on, std::memory_order_relaxed); }
bool single_run() { return g_single_run.load(std::memory_order_relaxed); }

}  // namespace nn
