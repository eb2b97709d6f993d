// Solver updates on a CUDA device: the Solver base calls this for parameters whose data lives on a device.
#pragma once
#include <cstdint>
#include <string>

#include "nn/ops/attributes.hpp"
#include "nn/solvers/solver.hpp"

namespace nn::cuda {

struct SolverStep {
  std::string type;        // "Sgd", "Momentum", "Adam", "AdamW"
  Attrs hyper;             // Solver::info().params
  double initial_lr = 0;   // AdamW: eta_t = alpha / initial alpha
  double fused_decay = 0;  // AdamW: the pending decoupled decay rate
  uint32_t t = 0;          // the state's count before this step
};

// Updates param (data from grad) and its state on the device of param's data. False when the solver type
// has no device kernel (the caller then runs the CPU update; the arrays sync themselves).
bool update_on_device(const SolverStep& step, Variable& param, SolverState& state);

}  // namespace nn::cuda
