// Restoring `nncli train` state: parameters and solver states into a Trainer, and `-r` from the newest
// checkpoint in outdir, read by rank 0 and broadcast to the other MPI processes
// (docs/command_line.md#train-output-directory, #train-mpi).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "nn/ir/graph_builder.hpp"
#include "nn/ir/model.hpp"
#include "nn/train/communicator.hpp"
#include "nn/train/trainer.hpp"

namespace nncli {

using SolverStatesByOptimizer = std::map<std::string, std::map<std::string, nn::ir::SolverState>>;

// Parameter values copied into the variables the networks already use (by name, same shape).
void copy_parameter_values(const std::vector<nn::ir::Parameter>& from, nn::ir::ParameterStore& store);
void set_solver_states(nn::train::Trainer& trainer, const SolverStatesByOptimizer& states);
SolverStatesByOptimizer states_of(const nn::ir::Model& m);

// -r: train_checkpoint.nnp whenever it exists (exact resume: it is written before results_current_N.nnp, so
// it is never older than them), else results_current_N.nnp (upstream: from epoch N+1), else from the start.
// Rank 0 chooses and reads the file; the other processes receive its bytes (their outdir may be elsewhere).
void resume_training(const std::string& outdir, const nn::ir::Model& model, nn::ir::ParameterStore& store,
                     nn::train::Trainer& trainer, nn::train::Communicator& communicator);

}  // namespace nncli
