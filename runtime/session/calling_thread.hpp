// Networks whose whole work is small run every function on the calling thread (issue 37, part 1).
#pragma once
#include "nn/ir/graph_builder.hpp"
#include "nn/ir/model.hpp"

namespace nncli {

// Floating-point operations of one forward pass of `network` as built: 2 * multiply-adds of its convolutions,
// affine layers and matrix products (what splitting over threads could speed up).
double network_flops(const nn::ir::Network& network, const nn::ir::BuiltNetwork& built);

// Below this many flops per pass (a CIFAR ResNet-20 at batch 1 is 82 MFLOP), a team costs more than it
// saves: every function's split or hand-off waits for a worker, on a busy machine for one the scheduler has
// not run. NN_CALLING_THREAD_MFLOPS changes it (0: never).
double calling_thread_max_flops();

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
