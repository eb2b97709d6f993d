// Solver work on a GPU device: the CUDA backend exports `const SolverDeviceHooks* nncli_cuda_solver_device()`,
// which the Solver base looks up once the backend is loaded (gpu_backend_symbol) and calls for parameters
// whose grads live on a device.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "nn/ops/attributes.hpp"
#include "nn/solvers/solver.hpp"

namespace nn {

struct SolverStep {
  std::string type;        // Solver::type(), e.g. "Adam"
  Attrs hyper;             // Solver::info().params
  double initial_lr = 0;   // Solver::initial_learning_rate(): SgdW/AdamW decay, AdaBound bounds scale by lr / it
  double fused_decay = 0;  // the pending decoupled decay rate (SgdW, AdamW, Lamb, Lion, Lars)
};

enum class GradCheck { kInf, kNan, kInfOrNan };

struct SolverDeviceHooks {
  // True when v's grad has its newest copy on a GPU device: the hooks below then work there.
  std::function<bool(Variable& v)> grad_on_device;
  // Updates param and its state on the device of its grad; false when the solver type has no device rule
  // (the caller then runs the CPU update).
  std::function<bool(const SolverStep& step, Variable& param, SolverState& state)> update;
  std::function<void(Variable& v, float rate)> weight_decay;   // grad += rate * data
  std::function<void(Variable& v, double norm)> clip_by_norm;  // grad *= norm / ||grad|| when ||grad|| > norm
  std::function<void(Variable& v, float scale)> scale;         // grad *= scale
  // Whether any element of these grads (each on a device) is inf / nan / either.
  std::function<bool(const std::vector<Variable*>& vars, GradCheck check)> any_grad;
};
// The exported name of the backend's function returning its hooks.
inline constexpr const char* kSolverDeviceSymbol = "nncli_cuda_solver_device";

}  // namespace nn
