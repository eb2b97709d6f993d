// The thread's gradient mode (see grad_mode.hpp).
#include "nn/graph/grad_mode.hpp"

namespace nn {
namespace {
thread_local bool t_grad_enabled = true;
}

bool grad_enabled() { return t_grad_enabled; }

NoGradScope::NoGradScope() : saved_(t_grad_enabled) { t_grad_enabled = false; }
NoGradScope::~NoGradScope() { t_grad_enabled = saved_; }

}  // namespace nn
