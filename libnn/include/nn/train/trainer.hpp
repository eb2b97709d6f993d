// Trainer: nnabla_cli's training loop over an ir::Model (docs/command_line.md#train-main-loop,
// #train-one-iteration, #train-evaluation): optimizers with their solvers, schedules and data feeds, per-epoch
// cost, monitor evaluation and the best/current save decisions.
// Files are not written here: the caller implements TrainerHooks (results.nnp, reports, checkpoints).
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nn/core/context.hpp"
#include "nn/ir/graph_builder.hpp"
#include "nn/ir/model.hpp"
#include "nn/solvers/solver.hpp"
#include "nn/train/batch_source.hpp"
#include "nn/train/communicator.hpp"
#include "nn/train/loss_scaler.hpp"
#include "nn/train/lr_scheduler.hpp"
#include "nn/train/monitor.hpp"

namespace nn::train {

struct TrainerOptions {
  nn::Context context;
  uint32_t seed = 0;  // initializers of parameters not loaded from a file
  // Data-parallel training (docs/command_line.md#train-mpi) when it has more than one process: iter_per_epoch,
  // schedules and start/end_iter divided by the world size, gradients averaged before each update, cost and
  // monitors summed over processes. The BatchSourceFactory hands each process its slice. nullptr: one process.
  Communicator* communicator = nullptr;
  // Dynamic loss scaling of every optimizer (on by default for half contexts, see cmd_train).
  LossScalingOptions loss_scaling;
};

// The parameters of `network` that optimizer `o` trains, in the order its solver holds them: matched by a
// parameter_variable with learning_rate_multiplier > 0. A parameter_variable name is a prefix pattern whose
// '{id}' placeholders match a loop's '[N]' (the optimizer's own list, from before the loops were expanded).
std::vector<std::string> trainable_parameter_names(const ir::Optimizer& o, const ir::Network& network);

// One finished epoch, as logged and reported.
struct EpochResult {
  int64_t epoch = 0;  // 1-based
  int64_t max_epoch = 0;
  double cost = 0.0;
  bool evaluated = false;
  std::vector<std::pair<std::string, double>> monitors;  // in file order (evaluated epochs only)
  double elapsed_s = 0.0;                                // since this run started
  double estimate_s = 0.0;                               // projected total of this run
};

// Everything needed to continue a run exactly (together with parameters and solver states).
struct TrainState {
  int64_t iteration = 0;  // the next iteration to run
  double cost_sum = 0.0;  // the current epoch so far
  int64_t cost_count = 0;
  std::string rng_state;                             // nn::global_random(), as text
  std::map<std::string, int64_t> train_positions;    // dataset name -> batches the optimizers consumed
  std::map<std::string, int64_t> monitor_positions;  // dataset name -> batches the monitors consumed
  bool has_best = false;
  double best_error = 0.0;
  // Dynamic loss scaling: optimizer name -> (scale, good updates since the last change).
  std::map<std::string, std::pair<double, int64_t>> loss_scales;
};

enum class TrainOutcome { kCompleted, kNanStopped, kInterrupted };

class TrainerHooks {
 public:
  virtual ~TrainerHooks() = default;
  // progress.txt text ("Training : cost=...", "Evaluating ...") and fraction in [0, 1].
  virtual void on_progress(const std::string& state, double fraction) {}
  // After every iteration (it = the iteration just run, 0-based).
  virtual void on_iteration(int64_t it) {}
  // The end of an epoch: report, log, save the current checkpoint.
  virtual void on_epoch(const EpochResult& result) {}
  // results.nnp should be written now (best model, or every evaluated epoch without save_best).
  virtual void save_best(int64_t epoch) {}
  // Polled after every iteration; true stops the run (TrainOutcome::kInterrupted).
  virtual bool stop_requested() { return false; }
};

class Trainer {
 public:
  // model: networks already expanded (no repeat_info). params: the store holding parameters loaded from
  // files; missing ones are created by the networks' initializers. Throws nn::Error naming the optimizer,
  // monitor, network or dataset at fault.
  Trainer(const ir::Model& model, ir::ParameterStore& params, const BatchSourceFactory& open_dataset,
          const TrainerOptions& options);
  ~Trainer();

  int64_t max_epoch() const { return max_epoch_; }
  int64_t iter_per_epoch() const { return iter_per_epoch_; }
  int64_t max_iter() const { return max_epoch_ * iter_per_epoch_; }

  // Solvers in optimizer order, with the optimizer each belongs to.
  size_t num_optimizers() const;
  const ir::Optimizer& optimizer(size_t i) const;
  Solver& solver(size_t i);

  TrainState state() const;
  // Continues from a saved state (solver states and parameters are restored by the caller).
  void restore(const TrainState& state);
  // Continues at the first iteration of epoch+1 without data positions (upstream's -r from an NNP).
  void restart_at_epoch(int64_t epoch);

  // Runs iterations from the current state to max_iter.
  TrainOutcome run(TrainerHooks& hooks);

  // One iteration (docs/command_line.md#train-one-iteration); returns its cost (sum over active optimizers
  // of their mean losses).
  double update(int64_t it);
  // World size (1 without a distributed communicator) and seconds spent all-reducing gradients so far.
  int world_size() const { return world_; }
  double gradient_reduce_seconds() const { return reduce_seconds_; }
  int64_t gradient_reduce_count() const { return reduce_count_; }
  // Updates skipped by dynamic loss scaling (inf/NaN gradients), over all optimizers.
  int64_t skipped_updates() const;

  // Every monitor once (docs/command_line.md#train-evaluation), in file order.
  std::vector<std::pair<std::string, double>> evaluate(TrainerHooks& hooks);

 private:
  struct OptimizerRun;
  struct Feed;
  void setup_optimizer(const ir::Optimizer& o, const BatchSourceFactory& open_dataset);
  void mark_trainable_parameters();
  BatchSource& train_source(const std::string& dataset);
  void average_gradients(OptimizerRun& run);
  // The two ways of average_gradients: on the GPU (false when the grads are not there or the communicator
  // has no device all-reduce), or through one packed host buffer.
  bool average_on_device(const std::vector<Variable*>& vars);
  void average_on_host(const std::vector<Variable*>& vars);
  // Weight decay, all-reduce, loss-scale bookkeeping, learning rate and the solver step of one update.
  void apply_update(OptimizerRun& run, int64_t it);

  const ir::Model& model_;
  ir::ParameterStore& params_;
  TrainerOptions options_;
  int64_t max_epoch_ = 0, iter_per_epoch_ = 0, monitor_interval_ = 10;
  int world_ = 1;
  int64_t schedule_iter_ = 0;  // max_epoch * the configured iter_per_epoch (before division by world_)
  double reduce_seconds_ = 0.0;
  int64_t reduce_count_ = 0;
  std::vector<float> reduce_buffer_;
  bool save_best_ = true;
  std::vector<std::unique_ptr<OptimizerRun>> optimizers_;
  std::map<std::string, std::unique_ptr<BatchSource>> train_sources_;
  std::unique_ptr<MonitorSet> monitors_;
  int64_t iteration_ = 0;
  double cost_sum_ = 0.0;
  int64_t cost_count_ = 0;
  double last_cost_ = 0.0;
  bool has_best_ = false;
  double best_error_ = 0.0;
  std::map<std::string, const Batch*> iteration_batches_;
};

// The rule upstream uses to throttle results_current_N.nnp (docs/command_line.md#train-output-directory):
// written when forced, or when the target does not exist and more than 180 s passed since the last save or
// more than 10 epochs.
class SaveThrottle {
 public:
  bool should_save(int64_t epoch, bool force, bool target_exists);
  void saved(int64_t epoch);

 private:
  bool first_ = true;
  int64_t last_epoch_ = 0;
  std::chrono::steady_clock::time_point last_time_{};
};

}  // namespace nn::train
