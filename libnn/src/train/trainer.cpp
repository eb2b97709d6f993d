// Trainer: the nnabla_cli training loop over networks built from an ir::Model
// (docs/command_line.md#train-main-loop, #train-one-iteration, #train-evaluation).
#include "nn/train/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>
#include <set>
#include <sstream>

#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/core/random.hpp"
#include "train/feed.hpp"

namespace nn::train {

namespace {

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

// Solver types nnabla_cli's train accepts (docs/nnp_format.md#solvers-train-accepts); others fail as upstream
// does.
const std::set<std::string>& supported_training_solvers() {
  static const std::set<std::string> names{
      "Adagrad", "Adadelta", "AdaBelief", "Adam",    "AdamW",         "Adamax", "AdaBound", "AMSGRAD", "AMSBound",
      "Lars",    "Momentum", "Nesterov",  "RMSprop", "RMSpropGraves", "Sgd",    "SGD",      "SgdW"};
  return names;
}

// ParameterVariable names may hold '{id}' placeholders matching '[N]'; the match is a prefix match.
std::regex parameter_pattern(const std::string& name) {
  std::string re;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '{') {
      size_t close = name.find('}', i);
      if (close != std::string::npos) {
        re += "\\[\\d+\\]";
        i = close;
        continue;
      }
    }
    if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) re += '\\';
    re += c;
  }
  return std::regex(re);
}

}  // namespace

std::vector<std::string> trainable_parameter_names(const ir::Optimizer& o, const ir::Network& network) {
  std::vector<std::string> names;
  for (const auto& pv : o.parameter_variable) {
    if (!(pv.learning_rate_multiplier > 0.0)) continue;
    const std::regex re = parameter_pattern(pv.variable_name);
    for (const auto& v : network.variables)
      if (v.type == "Parameter" && std::regex_search(v.name, re, std::regex_constants::match_continuous) &&
          std::find(names.begin(), names.end(), v.name) == names.end())
        names.push_back(v.name);
  }
  return names;
}

struct Trainer::OptimizerRun {
  const ir::Optimizer* optimizer = nullptr;
  std::unique_ptr<ir::BuiltNetwork> network;
  std::unique_ptr<Solver> solver;
  std::unique_ptr<LearningRateScheduler> scheduler;
  std::vector<std::string> datasets;
  std::vector<detail::DataBinding> data;
  std::vector<detail::IndexCheck> index_checks;
  std::vector<detail::GeneratorBinding> generators;
  std::vector<VariablePtr> losses;
  std::vector<std::string> trainable;  // parameter names, solver order
  int64_t update_interval = 1;
  int64_t start_iter = 0, end_iter = 0;
  std::unique_ptr<DynamicLossScaler> scaler;  // mixed-precision training only
  bool active(int64_t it) const {
    return (start_iter == 0 || it + 1 >= start_iter) && (end_iter == 0 || it + 1 <= end_iter);
  }
};

Trainer::Trainer(const ir::Model& model, ir::ParameterStore& params, const BatchSourceFactory& open_dataset,
                 const TrainerOptions& options)
    : model_(model), params_(params), options_(options) {
  if (options.communicator && options.communicator->distributed()) world_ = options.communicator->size();
  if (model.training_config) {
    max_epoch_ = model.training_config->max_epoch;
    iter_per_epoch_ = model.training_config->iter_per_epoch;
    save_best_ = model.training_config->save_best;
    monitor_interval_ = model.training_config->monitor_interval;
  }
  if (monitor_interval_ <= 0) monitor_interval_ = 10;
  NN_CHECK(max_epoch_ >= 0 && iter_per_epoch_ >= 0)
      << "training_config: max_epoch " << max_epoch_ << " and iter_per_epoch " << iter_per_epoch_
      << " must not be negative";
  schedule_iter_ = max_epoch_ * iter_per_epoch_;  // schedules divide the configured length themselves
  iter_per_epoch_ /= world_;                      // each process runs its share of the iterations
  // Datasets are opened only when there is something to train (docs/command_line.md#train-start-up).
  const bool open = max_iter() > 0;
  const BatchSourceFactory no_data = [](const ir::Dataset& d, int, int64_t) -> std::unique_ptr<BatchSource> {
    NN_FAIL(ErrorCode::kInternal) << "dataset " << in_quotes(d.name) << " opened without training";
  };
  for (const auto& o : model.optimizers) setup_optimizer(o, open ? open_dataset : no_data);
  mark_trainable_parameters();
  if (open)
    monitors_ = std::make_unique<MonitorSet>(model, params, open_dataset, options.context, options.seed + 1000,
                                             world_ > 1 ? options.communicator : nullptr);
}

Trainer::~Trainer() = default;

void Trainer::setup_optimizer(const ir::Optimizer& o, const BatchSourceFactory& open_dataset) {
  const std::string owner = "optimizer " + in_quotes(o.name);
  auto run = std::make_unique<OptimizerRun>();
  run->optimizer = &o;
  const ir::Network* net = model_.find_network(o.network_name);
  if (!net) {
    std::string known;
    for (const auto& n : model_.networks) known += (known.empty() ? "" : ", ") + in_quotes(n.name);
    NN_FAIL(ErrorCode::kInvalid) << owner << ": network " << in_quotes(o.network_name)
                                 << " is not defined (networks: " << (known.empty() ? "none" : known) << ")";
  }
  NN_CHECK(!o.loss_variable.empty()) << owner << ": no loss_variable";
  NN_CHECK(supported_training_solvers().count(o.solver.type))
      << owner << ": Solver \"" << o.solver.type << "\" is not supported.";

  // The network is built at the batch size of the optimizer's first dataset.
  int64_t batch_size = -1;
  std::vector<std::pair<std::string, const BatchSource*>> sources;
  for (const auto& ds_name : o.dataset_name) {
    const ir::Dataset* ds = nullptr;
    int index = 0;
    for (size_t i = 0; i < model_.datasets.size(); ++i)
      if (model_.datasets[i].name == ds_name) ds = &model_.datasets[i], index = int(i);
    if (!ds) {
      std::string known;
      for (const auto& d : model_.datasets) known += (known.empty() ? "" : ", ") + in_quotes(d.name);
      NN_FAIL(ErrorCode::kInvalid) << owner << ": dataset " << in_quotes(ds_name)
                                   << " is not defined (datasets: " << (known.empty() ? "none" : known) << ")";
    }
    if (batch_size < 0 && ds->batch_size > 0) batch_size = ds->batch_size;
    run->datasets.push_back(ds_name);
    if (max_iter() > 0) {
      auto& source = train_sources_[ds_name];
      if (!source) source = open_dataset(*ds, index, ds->batch_size > 0 ? ds->batch_size : net->batch_size);
      sources.push_back({ds_name, source.get()});
    }
  }
  ir::BuildOptions bo;
  bo.batch_size = batch_size;
  bo.context = options_.context;
  bo.training = true;
  bo.seed = options_.seed + uint32_t(optimizers_.size());
  run->network = std::make_unique<ir::BuiltNetwork>(
      with_context(owner, [&] { return ir::build_network(*net, params_, bo); }));
  if (max_iter() > 0) run->data = detail::bind_data(o.data_variable, *run->network, sources, owner);
  run->generators =
      with_context(owner, [&] { return detail::bind_generators(o.generator_variable, *run->network); });
  for (const auto& l : o.loss_variable)
    run->losses.push_back(with_context(owner, [&] { return run->network->get(l.variable_name); }));
  run->index_checks = detail::bind_index_checks(run->data, run->losses);

  for (const auto& n : trainable_parameter_names(o, *net))
    if (params_.find(n)) run->trainable.push_back(n);
  run->solver = with_context(owner, [&] { return create_solver(o.solver.type, o.solver.params); });
  Solver::ParameterList list;
  for (const auto& n : run->trainable) list.push_back({n, params_.find(n)});
  run->solver->set_parameters(list);
  const double lr0 = initial_learning_rate(o.solver);
  run->scheduler = with_context(
      owner, [&] { return std::make_unique<LearningRateScheduler>(o.solver, lr0, schedule_iter_, world_); });
  NN_LOG_VERBOSE << owner << ": " << o.solver.type << " on " << list.size() << " parameters, learning rate "
                 << run->scheduler->description();
  run->update_interval = o.update_interval > 0 ? o.update_interval : 1;
  // Under MPI the iteration bounds count per-process iterations: (x - 1) // W + 1
  // (docs/command_line.md#train-mpi).
  const auto per_process = [&](int64_t x) { return x > 0 && world_ > 1 ? (x - 1) / world_ + 1 : x; };
  if (options_.loss_scaling.enabled) run->scaler = std::make_unique<DynamicLossScaler>(options_.loss_scaling);
  run->start_iter = per_process(o.start_iter);
  run->end_iter = per_process(o.end_iter);
  optimizers_.push_back(std::move(run));
}

void Trainer::mark_trainable_parameters() {
  std::set<std::string> trainable;
  for (const auto& run : optimizers_) trainable.insert(run->trainable.begin(), run->trainable.end());
  for (const auto& [name, var] : params_.ordered()) var->set_need_grad(trainable.count(name) > 0);
  for (const auto& run : optimizers_) detail::refresh_need_grad(run->losses);
}

size_t Trainer::num_optimizers() const { return optimizers_.size(); }
const ir::Optimizer& Trainer::optimizer(size_t i) const { return *optimizers_.at(i)->optimizer; }
Solver& Trainer::solver(size_t i) { return *optimizers_.at(i)->solver; }

BatchSource& Trainer::train_source(const std::string& dataset) { return *train_sources_.at(dataset); }

double Trainer::update(int64_t it) {
  NdArray::open_arena();  // set up: activations and gradients from the arena from here on
  const detail::IterationInfo info{it, iter_per_epoch_, max_epoch_};
  // One fetch per dataset per iteration, shared by every active optimizer that reads it.
  std::map<std::string, Batch> batches;
  for (const auto& run : optimizers_)
    if (run->active(it))
      for (const auto& ds : run->datasets)
        if (!batches.count(ds)) batches.emplace(ds, train_source(ds).next());
  double cost = 0.0;
  for (const auto& run : optimizers_) {
    if (!run->active(it)) continue;
    std::vector<std::pair<std::string, const Batch*>> named;
    for (const auto& ds : run->datasets) named.push_back({ds, &batches.at(ds)});
    with_context("optimizer " + in_quotes(run->optimizer->name), [&] {
      detail::assign_data(run->data, named, info);
      detail::check_indices(run->index_checks, run->data, named);
      detail::fill_generators(run->generators);
      forward_all(run->losses, false, true);
      if (it % run->update_interval == 0) run->solver->zero_grad();
      double seed = 1.0 / double(std::max<int64_t>(run->losses.front()->size(), 1));
      if (run->scaler) seed *= run->scaler->scale();
      for (size_t i = 0; i < run->losses.size(); ++i) {
        cost += detail::mean_value(*run->losses[i]);
        run->losses[i]->grad()->fill(seed);
        run->losses[i]->backward(RootGrad::kKeep, i + 1 == run->losses.size());
      }
      if (it % run->update_interval == run->update_interval - 1) apply_update(*run, it);
    });
  }
  return cost;
}

void Trainer::apply_update(OptimizerRun& run, int64_t it) {
  const double decay = run.optimizer->solver.weight_decay;
  if (run.scaler) {
    // Mixed precision: reduce, then unscale (or skip on inf/NaN), then decay, as nnabla's updater.
    if (world_ > 1) average_gradients(run);
    if (!run.scaler->unscale_or_skip(*run.solver)) return;
    if (decay > 0) run.solver->weight_decay(decay);
  } else {
    if (decay > 0) run.solver->weight_decay(decay);
    if (world_ > 1) average_gradients(run);
  }
  run.solver->set_learning_rate(run.scheduler->rate(it));
  run.solver->update();
}

int64_t Trainer::skipped_updates() const {
  int64_t n = 0;
  for (const auto& run : optimizers_)
    if (run->scaler) n += run->scaler->skipped_updates();
  return n;
}

void Trainer::average_gradients(OptimizerRun& run) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<Variable*> vars;
  for (const auto& name : run.trainable) vars.push_back(params_.find(name).get());
  if (!average_on_device(vars)) average_on_host(vars);
  reduce_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++reduce_count_;
}

bool Trainer::average_on_device(const std::vector<Variable*>& vars) {
  // Gradients written on the context's CUDA device are averaged there (NCCL) when the communicator can.
  if (vars.empty() || vars.front()->grad()->device().rfind("cuda:", 0) != 0) return false;
  const std::string device = vars.front()->grad()->device();
  std::vector<std::pair<float*, size_t>> arrays;
  for (Variable* v : vars)
    arrays.emplace_back(static_cast<float*>(v->grad()->cast_raw(ArrayKey{DType::kFloat32, device})),
                        size_t(v->size()));
  return options_.communicator->all_reduce_mean_device(arrays, options_.context.device_id);
}

void Trainer::average_on_host(const std::vector<Variable*>& vars) {
  // One all-reduce over every gradient packed together, then the average (upstream: division=True).
  size_t total = 0;
  for (Variable* v : vars) total += size_t(v->size());
  reduce_buffer_.resize(total);
  float* p = reduce_buffer_.data();
  for (Variable* v : vars) p = std::copy_n(v->grad()->get<float>(), v->size(), p);
  options_.communicator->all_reduce_sum(reduce_buffer_.data(), total);
  const float scale = 1.0f / float(world_);
  p = reduce_buffer_.data();
  for (Variable* v : vars) {
    float* g = v->grad()->cast<float>();
    for (int64_t i = 0; i < v->size(); ++i) g[i] = p[i] * scale;
    p += v->size();
  }
}

std::vector<std::pair<std::string, double>> Trainer::evaluate(TrainerHooks& hooks) {
  if (!monitors_) return {};
  return monitors_->evaluate([&](const std::string& s, double f) { hooks.on_progress(s, f); }, iteration_,
                             iter_per_epoch_, max_epoch_);
}

TrainState Trainer::state() const {
  TrainState s;
  s.iteration = iteration_;
  s.cost_sum = cost_sum_;
  s.cost_count = cost_count_;
  std::ostringstream rng;
  rng << global_random();
  s.rng_state = rng.str();
  for (const auto& [name, source] : train_sources_) s.train_positions[name] = source->position();
  if (monitors_) s.monitor_positions = monitors_->positions();
  s.has_best = has_best_;
  s.best_error = best_error_;
  for (const auto& run : optimizers_)
    if (run->scaler) s.loss_scales[run->optimizer->name] = {run->scaler->scale(), run->scaler->counter()};
  return s;
}

void Trainer::restore(const TrainState& s) {
  NN_CHECK(s.iteration >= 0 && s.iteration <= max_iter())
      << "checkpoint iteration " << s.iteration << " is outside this training (" << max_iter() << " iterations)";
  iteration_ = s.iteration;
  cost_sum_ = s.cost_sum;
  cost_count_ = s.cost_count;
  if (!s.rng_state.empty()) {
    std::istringstream rng(s.rng_state);
    rng >> global_random();
    NN_CHECK(!rng.fail()) << "checkpoint: the random generator state is damaged";
  }
  // Positions are validated before any seek: a tampered one would replay millions of shuffles.
  for (const auto& [name, pos] : s.train_positions)  // at most one batch per dataset and iteration
    NN_CHECK(pos >= 0 && pos <= s.iteration) << "checkpoint: dataset " << in_quotes(name) << " position " << pos
                                             << " is impossible after " << s.iteration << " iterations";
  for (const auto& [name, pos] : s.train_positions) {
    auto it = train_sources_.find(name);
    if (it != train_sources_.end()) it->second->seek(pos);
  }
  if (monitors_) monitors_->seek(s.monitor_positions, s.iteration / std::max<int64_t>(iter_per_epoch_, 1) + 1);
  has_best_ = s.has_best;
  best_error_ = s.best_error;
  for (const auto& run : optimizers_) {
    auto it = s.loss_scales.find(run->optimizer->name);
    if (run->scaler && it != s.loss_scales.end()) run->scaler->restore(it->second.first, it->second.second);
  }
}

void Trainer::restart_at_epoch(int64_t epoch) {
  iteration_ = std::clamp<int64_t>(epoch * iter_per_epoch_, 0, max_iter());
  cost_sum_ = 0.0;
  cost_count_ = 0;
}

TrainOutcome Trainer::run(TrainerHooks& hooks) {
  const int64_t ipe = iter_per_epoch_;
  const int64_t it0 = iteration_;
  const auto start = std::chrono::steady_clock::now();
  if (ipe > 0) {
    NN_LOG_INFO << "Training epoch " << it0 / ipe + 1 << " of " << max_epoch_ << " begin";
  }
  for (int64_t it = it0; it < max_iter(); ++it) {
    char text[64];
    std::snprintf(text, sizeof(text), "%0.6f", last_cost_);
    hooks.on_progress(std::string("Training : cost=") + text, double(it % ipe) / double(ipe));
    last_cost_ = update(it);
    bool stop = false;
    if (world_ > 1) {
      // Upstream: the iteration's cost summed over processes, counted W times. A stop request (Ctrl-C on
      // any process) travels with it, so every process stops after the same iteration.
      double sums[2] = {last_cost_, hooks.stop_requested() ? 1.0 : 0.0};
      options_.communicator->all_reduce_sum(sums, 2);
      cost_sum_ += sums[0];
      last_cost_ = sums[0] / double(world_);
      stop = sums[1] > 0.0;
    } else {
      cost_sum_ += last_cost_;
    }
    cost_count_ += world_;
    iteration_ = it + 1;
    if (!std::isfinite(cost_sum_)) {
      NN_LOG_WARNING << "Cost is Nan";
      return TrainOutcome::kNanStopped;
    }
    if ((it + 1) % ipe == 0) {
      EpochResult r;
      r.epoch = it / ipe + 1;
      r.max_epoch = max_epoch_;
      r.cost = cost_count_ > 0 ? cost_sum_ / double(cost_count_) : 0.0;
      cost_sum_ = 0.0;
      cost_count_ = 0;
      if (r.epoch % monitor_interval_ == 0 || r.epoch <= 5) {
        r.evaluated = true;
        r.monitors = evaluate(hooks);
        double valid_error = 0.0;
        for (const auto& [name, value] : r.monitors)
          if (name == "valid_error") valid_error = value;
        if (!save_best_ || !has_best_ || best_error_ == 0.0 || valid_error <= best_error_) {
          has_best_ = true;
          best_error_ = valid_error;
          hooks.save_best(r.epoch);
        }
      }
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      r.elapsed_s = elapsed;
      r.estimate_s = elapsed * double(max_iter() - it0) / double(it + 1 - it0);
      hooks.on_epoch(r);
    }
    hooks.on_iteration(it);
    if (world_ == 1) stop = hooks.stop_requested();
    if (it + 1 < max_iter() && stop) return TrainOutcome::kInterrupted;
  }
  return TrainOutcome::kCompleted;
}

bool SaveThrottle::should_save(int64_t epoch, bool force, bool target_exists) {
  if (force || first_) return true;
  if (target_exists) return false;
  const double since = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_time_).count();
  return since > 180.0 || epoch - last_epoch_ > 10;
}

void SaveThrottle::saved(int64_t epoch) {
  first_ = false;
  last_epoch_ = epoch;
  last_time_ = std::chrono::steady_clock::now();
}

}  // namespace nn::train
