// `nncli train`: nnabla_cli-compatible training from an NNP/nntxt config (docs/command_line.md#train), with
// exact resume.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>

#include "command.hpp"
#include "common/command_options.hpp"
#include "executor_runner.hpp"
#include "formats/nnp/nnp_reader.hpp"
#include "formats/passes/expand_repeat.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/core/random.hpp"
#include "nn/train/communicator.hpp"
#include "nn/train/trainer.hpp"
#include "common/progress.hpp"
#include "train_data.hpp"
#include "formats/common/atomic_file.hpp"
#include "train/train_io.hpp"
#include "train/train_outdir.hpp"
#include "train/train_resume.hpp"

namespace nncli {

namespace fs = std::filesystem;

struct TrainOptions {
  bool resume = false;
  std::string config, param, outdir, context, ooc_memory, ooc_window;
  bool enable_ooc = false;
  uint32_t seed = 0;
  std::vector<std::string> datasets;
  int64_t kill_at_iteration = 0;       // hidden, for tests: SIGKILL itself after this many iterations
  int64_t stop_at_iteration = 0;       // hidden, for tests: SIGSTOP itself (a stalled MPI process)
  int kill_rank = -1;                  // hidden, for tests: only this MPI rank kills/stops itself (-1: all)
  int64_t interrupt_at_iteration = 0;  // hidden, for tests: SIGINT itself after this many iterations
  int64_t terminate_at_iteration = 0;  // hidden, for tests: SIGTERM itself after this many iterations
  double loss_scale = -1;              // -1: 8 for half contexts, off for float; 0: off
  double loss_scale_factor = 2.0;
  int64_t loss_scale_interval = 2000;
};

std::shared_ptr<TrainOptions> setup_train(CLI::App& command) {
  auto o = std::make_shared<TrainOptions>();
  command.add_flag("-r,--resume", o->resume, "Resume from the newest checkpoint in the output directory");
  add_model_config_option(command, o->config, "Training config (.nntxt, .prototxt or .nnp)")->required();
  add_param_option(command, o->param, "Parameters and/or solver states loaded before training");
  add_outdir_option(command, o->outdir, "Output directory (created when missing)");
  command.add_flag("-O,--enable-ooc", o->enable_ooc, "GPU out-of-core training (no effect on CPU)");
  command.add_option("-m,--ooc-gpu-memory-size", o->ooc_memory, "OOC GPU memory size (no effect on CPU)");
  add_context_option(command, o->context,
                     "Context: cpu, cuda or cudnn[:half][:DEVICE_ID] (overrides the config's default_context)");
  command.add_option("-w,--ooc-window-length", o->ooc_window, "OOC window length (no effect on CPU)");
  add_seed_option(command, o->seed, "Seed of initializers, generators and stochastic functions");
  command.add_option("--dataset", o->datasets,
                     "NAME=PATH: read dataset NAME from PATH (a .csv, or a .cache directory) instead of its uri");
  command
      .add_option("--loss-scale", o->loss_scale,
                  "Initial dynamic loss scale (default 8 with a half context, else off; 0 turns it off)")
      ->check(CLI::Validator(
          [](std::string& v) {
            return !v.empty() && v[0] == '-' ? "must not be negative, got " + v : std::string();
          },
          "SCALE >= 0"));
  command
      .add_option("--loss-scale-factor", o->loss_scale_factor,
                  "Dynamic loss scaling: divide on inf/NaN gradients, multiply after the interval")
      ->capture_default_str();
  command
      .add_option("--loss-scale-interval", o->loss_scale_interval,
                  "Dynamic loss scaling: good updates before the scale grows")
      ->capture_default_str();
  command.add_option("--kill-at-iteration", o->kill_at_iteration)->group("");
  command.add_option("--interrupt-at-iteration", o->interrupt_at_iteration)->group("");
  command.add_option("--terminate-at-iteration", o->terminate_at_iteration)->group("");
  command.add_option("--stop-at-iteration", o->stop_at_iteration)->group("");
  command.add_option("--kill-rank", o->kill_rank)->group("");
  return o;
}

namespace {

volatile std::sig_atomic_t g_interrupted = 0;
// SIGINT or SIGTERM: finish the iteration, save the checkpoint and stop. A second signal ends the process
// at once (removing its temporary files).
void on_stop_signal(int sig) {
  g_interrupted = sig;
  nn::formats::install_temp_file_cleanup();
}

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

// Upstream's size strings: 123, 1.5G (x1000^n), 2g (x1024^n), or AeB (A to the power B).
bool valid_size_string(const std::string& s) {
  static const std::regex re(R"(^([1-9][0-9]*|[0-9]+(\.[0-9]+)?[KMGTPkmgtp]|[0-9]+e[0-9]+)$)");
  return std::regex_match(s, re);
}

nn::Context training_context(const TrainOptions& opt, const nn::ir::Model& model) {
  return select_context(opt.context, model);
}

// Dynamic loss scaling: on by default for half contexts (fp16 gradients underflow without it).
nn::train::LossScalingOptions loss_scaling(const TrainOptions& opt, const nn::Context& ctx) {
  nn::train::LossScalingOptions o;
  o.enabled = opt.loss_scale > 0 || (opt.loss_scale < 0 && ctx.uses_half());
  if (opt.loss_scale > 0) o.initial_scale = opt.loss_scale;
  o.factor = opt.loss_scale_factor;
  o.interval = opt.loss_scale_interval;
  return o;
}

// Upstream's log spelling of the context: "['cpu']", "['cudnn']".
std::string context_names(const nn::Context& ctx) {
  std::string s;
  for (const auto& b : ctx.parsed_backends()) {
    if (b.name == "cpu" && !s.empty()) continue;
    if (b.name == "cuda" && s.find("cudnn") != std::string::npos) continue;
    s += (s.empty() ? "'" : ", '") + b.name + "'";
  }
  return "[" + s + "]";
}

class TrainHooks : public nn::train::TrainerHooks {
 public:
  // rank: this process's MPI rank; only rank 0 writes files and logs epochs (docs/command_line.md#train-mpi).
  TrainHooks(const TrainOptions& opt, ProgressFile& progress, ResultWriter& writer, nn::ir::ParameterStore& store,
             nn::train::Trainer& trainer, int rank)
      : opt_(opt), progress_(progress), writer_(writer), store_(store), trainer_(trainer), rank_(rank) {
    if (rank_ == 0 && ::isatty(STDERR_FILENO) == 1)
      bar_ = std::make_unique<Progress>("Training", trainer.max_iter());
    start_ = std::chrono::steady_clock::now();
  }
  void on_progress(const std::string& state, double fraction) override { progress_.update(state, fraction); }
  void on_iteration(int64_t it) override {
    const bool this_rank = opt_.kill_rank < 0 || opt_.kill_rank == rank_;
    if (opt_.kill_at_iteration > 0 && it + 1 == opt_.kill_at_iteration && this_rank) std::raise(SIGKILL);
    if (opt_.stop_at_iteration > 0 && it + 1 == opt_.stop_at_iteration && this_rank) std::raise(SIGSTOP);
    if (opt_.interrupt_at_iteration > 0 && it + 1 == opt_.interrupt_at_iteration) std::raise(SIGINT);
    if (opt_.terminate_at_iteration > 0 && it + 1 == opt_.terminate_at_iteration) std::raise(SIGTERM);
    if (!bar_) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const int64_t done = it + 1 - first_it_;
    const double eta = done > 0 ? elapsed * double(trainer_.max_iter() - it - 1) / double(done) : 0.0;
    char note[160];
    std::snprintf(note, sizeof(note), "epoch %lld/%lld%s ETA %.0fs",
                  static_cast<long long>(it / trainer_.iter_per_epoch() + 1),
                  static_cast<long long>(trainer_.max_epoch()), last_errors_.c_str(), eta);
    bar_->update(it + 1, note);
  }
  void on_epoch(const nn::train::EpochResult& r) override {
    if (rank_ != 0) return;
    append_monitoring_report(writer_.outdir(), r);
    std::error_code ec;
    if (throttle_.should_save(r.epoch, false, fs::exists(current_results_path(writer_.outdir(), r.epoch), ec)))
      save_current(r.epoch);
    char cost[64];
    std::snprintf(cost, sizeof(cost), " cost=%.4f", r.cost);
    last_errors_ = cost;
    for (const auto& [name, value] : r.monitors) {
      char v[96];
      std::snprintf(v, sizeof(v), " %s=%.4f", name.c_str(), value);
      last_errors_ += v;
    }
    NN_LOG_INFO << epoch_log_line(r);
  }
  void save_best(int64_t epoch) override {
    if (rank_ == 0) writer_.save_results(true, epoch, store_, trainer_);
  }
  bool stop_requested() override { return g_interrupted != 0; }
  void save_current(int64_t epoch) {
    if (rank_ != 0) return;
    // The checkpoint first: a kill between the two leaves a checkpoint newer than the results beside it,
    // never older (-r then resumes exactly from the checkpoint).
    writer_.save_checkpoint(store_, trainer_);
    writer_.save_results(false, epoch, store_, trainer_);
    throttle_.saved(epoch);
  }
  void set_first_iteration(int64_t it) { first_it_ = it; }

 private:
  const TrainOptions& opt_;
  ProgressFile& progress_;
  ResultWriter& writer_;
  nn::ir::ParameterStore& store_;
  nn::train::Trainer& trainer_;
  int rank_;
  nn::train::SaveThrottle throttle_;
  std::unique_ptr<Progress> bar_;
  std::chrono::steady_clock::time_point start_;
  int64_t first_it_ = 0;
  std::string last_errors_;
};

}  // namespace

int run_train(const TrainOptions& opt) {
  if (!opt.ooc_memory.empty() && !valid_size_string(opt.ooc_memory))
    NN_FAIL(nn::ErrorCode::kInvalid) << "Fatal error. invalid ooc_gpu_memory_size [" << opt.ooc_memory << "].";
  if (!opt.ooc_window.empty() && !valid_size_string(opt.ooc_window))
    NN_FAIL(nn::ErrorCode::kInvalid) << "Fatal error. invalid ooc_window_length [" << opt.ooc_window << "].";
  // Under `nncli -m` in mpirun: data-parallel (docs/command_line.md#train-mpi); rank 0 alone writes into
  // outdir.
  nn::train::Communicator& comm = nn::train::process_communicator();
  const bool root = comm.is_root();
  OutdirLock outdir_lock;  // held until training ends: a second run into outdir is refused
  if (root) outdir_lock = prepare_outdir(opt.outdir);
  ProgressFile progress(opt.outdir, root);

  nn::formats::LoadOptions lo;
  lo.parameters = false;  // parameters in the config are ignored (docs/command_line.md#train-start-up)
  lo.solver_states = false;
  nn::ir::Model model = nn::formats::load_model({opt.config}, lo);
  apply_dataset_overrides(model, opt.datasets);
  for (const auto& d : model.datasets)
    NN_CHECK(d.uri.find_first_not_of(" \t\r\n") != std::string::npos) << "Fatal error. Dataset URI is empty.";

  // Expanded networks; parameter_variable lists keep their {id} patterns and learning-rate multipliers.
  nn::ir::Model expanded = nn::with_context(
      in_quotes(opt.config), [&] { return nn::formats::expand_model(model, nn::formats::OptimizerLists::kKept); });

  nn::ir::ParameterStore store;
  std::map<std::string, std::map<std::string, nn::ir::SolverState>> param_states;
  if (!opt.param.empty()) {
    NN_LOG_INFO << "Load training resume states: " << opt.param;
    nn::ir::Model loaded;
    loaded.optimizers = model.optimizers;
    nn::formats::load_parameters_into(loaded, opt.param);
    store.load(loaded.parameters);
    param_states = states_of(loaded);
  }

  nn::train::TrainerOptions to;
  to.context = training_context(opt, model);
  to.seed = opt.seed;
  to.communicator = &comm;
  if (comm.distributed()) to.context.device_id = comm.local_rank();
  to.loss_scaling = loss_scaling(opt, to.context);
  NN_LOG_INFO << "Train with contexts " << context_names(to.context);
  NN_LOG_INFO << "Using context \"" << to.context.to_string() << "\"";
  if (to.loss_scaling.enabled)
    NN_LOG_INFO << "Dynamic loss scaling: initial scale " << to.loss_scaling.initial_scale << ", factor "
                << to.loss_scaling.factor << ", interval " << to.loss_scaling.interval;
  const ConfigText config_text = root ? copy_config_text(opt.config, opt.outdir) : ConfigText{};
  ResultWriter writer(opt.outdir, config_text, model.optimizers);

  nn::set_global_seed(opt.seed);
  TrainDatasets datasets(&comm);
  const nn::train::BatchSourceFactory open = [&](const nn::ir::Dataset& d, int index, int64_t batch) {
    return datasets.open(d, index, batch);
  };
  nn::train::Trainer trainer =
      nn::with_context(in_quotes(opt.config), [&] { return nn::train::Trainer(expanded, store, open, to); });
  set_solver_states(trainer, param_states);

  if (trainer.max_iter() == 0) {
    NN_LOG_INFO << "0 epoch learning. (Just save parameter.)";
    if (root) writer.save_results(true, 0, store, trainer);
    NN_LOG_INFO << "Training Completed.";
    progress.clear();
    return 0;
  }
  if (opt.resume) {
    resume_training(opt.outdir, model, store, trainer, comm);
    // The epochs from the resumed one on are trained (and reported) again.
    if (root)
      trim_monitoring_report(opt.outdir,
                             trainer.state().iteration / std::max<int64_t>(trainer.iter_per_epoch(), 1));
  }
  if (comm.distributed()) {
    NN_LOG_INFO << "Training with MPI: " << comm.size() << " processes, " << trainer.iter_per_epoch()
                << " iterations per epoch each";
  }

  TrainHooks hooks(opt, progress, writer, store, trainer, comm.rank());
  hooks.set_first_iteration(trainer.state().iteration);
  g_interrupted = 0;
  auto previous_int = std::signal(SIGINT, on_stop_signal);
  auto previous_term = std::signal(SIGTERM, on_stop_signal);
  auto restore_signals = [&] {
    std::signal(SIGINT, previous_int);
    std::signal(SIGTERM, previous_term);
  };
  nn::train::TrainOutcome outcome;
  try {
    outcome = trainer.run(hooks);
  } catch (...) {
    restore_signals();
    progress.clear();
    throw;
  }
  restore_signals();
  clear_progress_line();
  if (trainer.skipped_updates() > 0)
    NN_LOG_INFO << "Dynamic loss scaling skipped " << trainer.skipped_updates()
                << " updates whose gradients held inf or NaN";
  if (comm.distributed() && trainer.gradient_reduce_count() > 0) {
    NN_LOG_VERBOSE << "MPI gradient all-reduce: " << trainer.gradient_reduce_count() << " updates, "
                   << 1e3 * trainer.gradient_reduce_seconds() / double(trainer.gradient_reduce_count())
                   << " ms each";
  }

  int status = 0;
  switch (outcome) {
    case nn::train::TrainOutcome::kCompleted:
      if (trainer.state().iteration > 0 && trainer.iter_per_epoch() > 0)
        hooks.save_current((trainer.state().iteration - 1) / trainer.iter_per_epoch() + 1);
      NN_LOG_INFO << "Training Completed.";
      break;
    case nn::train::TrainOutcome::kNanStopped: NN_LOG_INFO << "Training Incompleted."; break;
    case nn::train::TrainOutcome::kInterrupted:
      if (root) writer.save_checkpoint(store, trainer);
      NN_LOG_WARNING << "Training interrupted at iteration " << trainer.state().iteration
                     << "; checkpoint saved to " << checkpoint_path(opt.outdir) << " (continue with -r)";
      status = 128 + int(g_interrupted);  // 130 after SIGINT, 143 after SIGTERM, as the shell reports
      break;
  }
  progress.clear();
  return status;
}

}  // namespace nncli
