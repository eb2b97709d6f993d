// Solver-state files inside an NNP: the HDF5 '<opt>_<Solver>_optimizer.h5.optimizer' variant
// (docs/nnp_format.md#solver-state-files).
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::formats::nnp {

// "<optimizer name>_<solver type without a trailing 'Cuda'>_optimizer.h5.optimizer".
std::string solver_state_member_name(const ir::Optimizer& optimizer);

// Groups holding a dataset 't' are parameters (path = parameter name); their other datasets are states.
std::map<std::string, ir::SolverState> read_h5_solver_states(std::string_view bytes,
                                                             const std::string& display_name);

// parameter_order: the solver's parameter order for the 'index' attributes (states not listed follow
// in name order). State datasets of the known solvers are written in upstream's order.
std::string h5_solver_states_image(const ir::Solver& solver, const std::vector<std::string>& parameter_order = {});

}  // namespace nn::formats::nnp
