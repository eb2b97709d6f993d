// Networks whose whole work is small run every function on the calling thread (issue 37, part 1).
#pragma once
#include "nn/ir/graph_builder.hpp"
#include "nn/ir/model.hpp"

namespace nncli {

// Floating-point operations of one forward pass of `network` as built: 2 * multiply-adds of its convolutions,
// affine layers and matrix products (what splitting over threads could speed up).
double network_flops(const nn::ir::Network& network, const nn::ir::BuiltNetwork& built);

// Whether a pass of `flops` runs on the calling thread alone: below 5 MFLOP always (LeNet, 0.6 MFLOP: a team's
// hand-offs cost as much as its split saves), below 300 MFLOP while the machine is busy (nn::machine_busy: every
// split waits for a worker the scheduler has not run; a CIFAR ResNet-20, 82 MFLOP, gains from two threads only on
// a quiet machine). The NHWC SqueezeNet 32x32 (34 MFLOP) ran 1.15-1.28x faster on two threads than on one on an
// idle machine, in each of eight alternating pairs (the bound was 40 MFLOP when its team still woke for layout
// reorders and idle workers slept after a single busy check).
// NN_CALLING_THREAD_MFLOPS and NN_CALLING_THREAD_BUSY_MFLOPS change the bounds (0: never).
bool run_on_calling_thread(double flops);

// While alive and `on`, OpenMP regions this thread starts (libnn's loops, oneDNN) run on it alone.
class CallingThreadScope {
 public:
  explicit CallingThreadScope(bool on);
  ~CallingThreadScope();
  CallingThreadScope(const CallingThreadScope&) = delete;
  CallingThreadScope& operator=(const CallingThreadScope&) = delete;

 private:
  int saved_ = 0;
};

}  // namespace nncli
