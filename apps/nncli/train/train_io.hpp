// Files `nncli train` keeps in its output directory (docs/command_line.md#train-output-directory):
// monitoring_report.yml, results.nnp, results_current_<N>.nnp and train_checkpoint.nnp (exact
// resume state).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nn/ir/graph_builder.hpp"
#include "nn/ir/model.hpp"
#include "nn/train/trainer.hpp"

namespace nncli {

// Appends one epoch block ("<epoch-1>:", "  cost: <repr>", "  <monitor>: <repr>") to monitoring_report.yml.
void append_monitoring_report(const std::string& outdir, const nn::train::EpochResult& result);
// "epoch 1 of 3 cost=0.123456  {train_error=..., valid_error=...} time=(0.1s /0.3s) ".
std::string epoch_log_line(const nn::train::EpochResult& result);

// The config text stored in every result archive (docs/command_line.md#train-start-up, step 6): a
// .nntxt/.prototxt as it is; from an .nnp every text member is extracted into outdir and the last one is used.
struct ConfigText {
  std::string member_name;  // e.g. "net.nntxt"
  std::string text;
};
ConfigText copy_config_text(const std::string& config, const std::string& outdir);

// Everything a checkpoint restores.
struct Checkpoint {
  nn::train::TrainState state;
  std::vector<nn::ir::Parameter> parameters;
  std::map<std::string, std::map<std::string, nn::ir::SolverState>> solver_states;  // by optimizer name
};

class ResultWriter {
 public:
  // optimizers: the model's optimizers as in the config (their names and solver types name the state files).
  ResultWriter(std::string outdir, ConfigText config, std::vector<nn::ir::Optimizer> optimizers);

  // results.nnp (best = true) or results_current_<epoch>.nnp replacing older ones; solver states are
  // included when epoch % 5 == 0. Written atomically; older files are removed only after the new one exists.
  void save_results(bool best, int64_t epoch, const nn::ir::ParameterStore& params, nn::train::Trainer& trainer);
  // train_checkpoint.nnp: parameters, every solver state and the trainer state (atomically).
  void save_checkpoint(const nn::ir::ParameterStore& params, nn::train::Trainer& trainer);

  const std::string& outdir() const { return outdir_; }

 private:
  nn::ir::Model result_model(const nn::ir::ParameterStore& params, nn::train::Trainer& trainer,
                             bool with_states) const;
  std::string outdir_;
  ConfigText config_;
  std::vector<nn::ir::Optimizer> optimizers_;
};

// The largest N of the results_current_N.nnp files in outdir (nullopt when none).
std::optional<int64_t> latest_current_epoch(const std::string& outdir);
std::string current_results_path(const std::string& outdir, int64_t epoch);
std::string checkpoint_path(const std::string& outdir);
// Reads train_checkpoint.nnp (nullopt when absent); throws nn::Error naming the file when it is damaged.
std::optional<Checkpoint> read_checkpoint(const std::string& path,
                                          const std::vector<nn::ir::Optimizer>& optimizers);

// Solver states between the engine and the file model.
std::vector<std::pair<std::string, nn::SolverState>> to_solver_states(
    const std::map<std::string, nn::ir::SolverState>& states, const nn::Solver& solver);
std::map<std::string, nn::ir::SolverState> from_solver_states(const nn::Solver& solver);

}  // namespace nncli
