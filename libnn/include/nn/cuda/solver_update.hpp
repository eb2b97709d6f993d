// Solver work on a CUDA device: registered as the Solver base's device hooks (nn/solvers/solver_device.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/solvers/solver_device.hpp"

namespace nn::cuda {

// True when v's grad has its newest copy on a CUDA device ("cuda..."): the functions below then work there.
bool grad_on_device(Variable& v);

// Updates param (data from grad) and its state (step count: state.t before this step) on the device of
// param's grad: data and state arrays are read as float there and their device copies become the newest.
// False when the grad is not on a CUDA device or the solver type has no device rule (the caller then runs
// the CPU update).
bool update_on_device(const SolverStep& step, Variable& param, SolverState& state);

// Gradient utilities on the grad's device (grad must be on a CUDA device).
void weight_decay_on_device(Variable& v, float rate);        // grad += rate * data
void clip_grad_by_norm_on_device(Variable& v, double norm);  // grad *= norm / ||grad|| when ||grad|| > norm
void scale_grad_on_device(Variable& v, float scale);

// Whether any element of these grads (each on a CUDA device) is inf / nan / either: one device flag per
// device, read back once per device.
bool any_grad_on_device(const std::vector<Variable*>& vars, GradCheck check);

}  // namespace nn::cuda
