// `nncli profile` measurements: builds each optimizer (training) and executor (inference) network, feeds it
// data (its dataset, or random values of the declared shapes), and times every step and function.
#include "profile_runner.hpp"

#include <map>
#include <random>
#include <unordered_map>

#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/graph/grad_mode.hpp"
#include "nn/core/ndarray.hpp"
#include "nn/ir/graph_builder.hpp"
#include "nn/ir/initializer.hpp"
#include "nn/solvers/solver.hpp"
#include "nn/train/trainer.hpp"
#include "batch_split.hpp"
#include "calling_thread.hpp"
#include "model_session.hpp"
#include "train_data.hpp"

namespace nncli::profile {

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// Items in first-seen order, looked up by name.
class ItemTable {
 public:
  Item& get(const std::string& csv_name, const std::string& kind, const std::string& fname = "",
            const std::string& ftype = "") {
    return items_[index(csv_name, kind, fname, ftype)];
  }
  size_t index(const std::string& csv_name, const std::string& kind, const std::string& fname = "",
               const std::string& ftype = "") {
    const std::string key = kind + "\n" + fname + "\n" + csv_name;
    auto it = index_.find(key);
    if (it != index_.end()) return it->second;
    index_[key] = items_.size();
    items_.push_back(Item{csv_name, kind, fname, ftype, {}, {}});
    return items_.size() - 1;
  }
  // The item of one function, named as upstream names its row ("forward_function (Type : Type)").
  size_t function_index(const std::string& kind, const std::string& fname, const std::string& ftype) {
    return index(kind + " (" + ftype + " : " + ftype + ")", kind, fname, ftype);
  }
  Item& at(size_t i) { return items_[i]; }
  void add(const std::string& csv_name, double ms) { get(csv_name, "step").samples_ms.push_back(ms); }
  std::vector<Item> take() { return std::move(items_); }

 private:
  std::vector<Item> items_;
  std::map<std::string, size_t> index_;
};

// Hooks that time every function of a forward or backward pass into the item table. On a GPU context each
// timer waits for the device first (kernels run asynchronously), as nnabla's profiler does.
struct FunctionTimer {
  // enabled false: no hooks (profile --no-function-times).
  FunctionTimer(ItemTable& table, const char* kind, const nn::Context& context, bool enabled)
      : table(table), kind(kind), context(context), enabled(enabled) {}
  ItemTable& table;
  const char* kind;  // "forward_function" / "backward_function"
  const nn::Context& context;
  bool recording = true;
  bool enabled;
  Clock::time_point start{};
  nn::FunctionHook pre() {
    if (!enabled) return nullptr;
    return [this](const nn::FunctionNode&) {
      nn::synchronize(context);
      start = Clock::now();
    };
  }
  nn::FunctionHook post() {
    if (!enabled) return nullptr;
    return [this](const nn::FunctionNode& node) {
      nn::synchronize(context);
      const double ms = ms_since(start);
      if (!recording) return;
      // The item of each function is looked up by name once: building its name on every call cost more than
      // LeNet's functions themselves take.
      auto it = items.find(&node);
      if (it == items.end()) {
        it = items.emplace(&node, table.function_index(kind, node.name, node.function().type())).first;
      }
      table.at(it->second).samples_ms.push_back(ms);
    };
  }
  std::unordered_map<const nn::FunctionNode*, size_t> items;  // each function's row of `table`
};

// Function times of a batch run as sub-batches (batch_split.hpp): each thread sums the times of its
// instance's functions; a function's sample is then its total over the chunks divided by the threads, its
// share of the pass's wall time, so the function figures still add up to the iteration.
class SplitFunctionTimer {
 public:
  // enabled false: no hooks (profile --no-function-times), as FunctionTimer.
  SplitFunctionTimer(int threads, const nn::ir::Network& network, bool enabled)
      : threads_(size_t(threads)), enabled_(enabled) {
    for (const auto& f : network.functions) order_.push_back(f.name);
  }
  BatchSplit::Hooks hooks() {
    if (!enabled_) return {};
    return [this](int t) {
      PerThread& mine = threads_[size_t(t)];
      return std::make_pair(nn::FunctionHook([&mine](const nn::FunctionNode&) { mine.start = Clock::now(); }),
                            nn::FunctionHook([&mine](const nn::FunctionNode& node) {
                              mine.total_ms[&node] += ms_since(mine.start);
                            }));
    };
  }
  // Adds this pass's samples to `table` (when recording) and starts the next pass.
  void flush(ItemTable& table, bool record) {
    std::map<std::string, std::pair<std::string, double>> by_name;  // function -> type, total ms
    for (PerThread& t : threads_) {
      for (const auto& [node, ms] : t.total_ms) {
        auto& entry = by_name[node->name];
        entry.first = node->function().type();
        entry.second += ms;
      }
      t.total_ms.clear();
    }
    if (!record) return;
    for (const auto& name : order_) {  // rows in the network's order, as a whole pass makes them
      auto it = by_name.find(name);
      if (it == by_name.end()) continue;
      const auto& [type, total_ms] = it->second;
      table.at(table.function_index("forward_function", name, type))
          .samples_ms.push_back(total_ms / double(threads_.size()));
    }
  }

 private:
  struct PerThread {
    Clock::time_point start{};
    std::unordered_map<const nn::FunctionNode*, double> total_ms;
  };
  std::vector<PerThread> threads_;
  bool enabled_;
  std::vector<std::string> order_;  // function names in the network's order
};

// Data variables fed from a dataset batch, or random values when the dataset cannot be opened.
class DataFeed {
 public:
  DataFeed(const std::vector<nn::ir::DataVariable>& vars, const nn::ir::BuiltNetwork& net,
           std::unique_ptr<nn::train::BatchSource> source, uint32_t seed)
      : source_(std::move(source)), rng_(seed) {
    for (const auto& dv : vars) {
      Slot slot{dv.data_name, dv.variable_name, net.get(dv.variable_name), -1, {}};
      if (source_) slot.column = source_->find_variable(dv.data_name);
      if (slot.column < 0) {
        std::uniform_real_distribution<float> u(0.f, 1.f);
        slot.random.resize(size_t(slot.var->size()));
        for (float& x : slot.random) x = u(rng_);
        random_ = true;
      }
      slots_.push_back(std::move(slot));
    }
  }
  bool uses_random() const { return random_ || !source_; }

  void step(ItemTable& table, double& total) {
    nn::train::Batch batch;
    if (source_) {
      const auto t0 = Clock::now();
      batch = source_->next();
      const double ms = ms_since(t0);
      table.add("load_dataset", ms);
      total += ms;
    }
    for (auto& s : slots_) {
      const auto t0 = Clock::now();
      const std::vector<float>& values = s.column >= 0 ? batch.data[size_t(s.column)] : s.random;
      NN_CHECK(int64_t(values.size()) == s.var->size())
          << "data " << quoted(s.data_name) << " has " << values.size() << " values per batch but variable "
          << quoted(s.var_name) << " needs " << s.var->size();
      std::copy(values.begin(), values.end(), s.var->data()->cast<float>(true));
      const double ms = ms_since(t0);
      table.add("let_data (" + s.data_name + " to " + s.var_name + ")", ms);
      total += ms;
    }
  }

 private:
  struct Slot {
    std::string data_name, var_name;
    nn::VariablePtr var;
    int column;
    std::vector<float> random;
  };
  std::unique_ptr<nn::train::BatchSource> source_;
  std::vector<Slot> slots_;
  std::mt19937 rng_;
  bool random_ = false;
};

double fill_generators(const std::vector<nn::ir::GeneratorVariable>& gens, const nn::ir::BuiltNetwork& net,
                       nn::RandomEngine& rng, ItemTable& table) {
  double total = 0;
  for (const auto& g : gens) {
    nn::VariablePtr var = net.get(g.variable_name);
    const auto t0 = Clock::now();
    nn::initialize_parameter(g.type, g.multiplier, *var->data(), rng);
    const double ms = ms_since(t0);
    table.add("generate_data (" + g.variable_name + ")", ms);
    total += ms;
  }
  return total;
}

// Outputs need a grad when any input of their function does (parameters' flags are set before).
void propagate_need_grad(const std::vector<nn::VariablePtr>& outputs) {
  for (nn::FunctionNode* node : nn::collect_functions(outputs)) {
    const bool need = node->need_grad();
    for (const auto& out : node->outputs()) out->set_need_grad(need);
  }
}

// Runs warm-up and measurement of one target; `step(record)` runs one iteration and returns its ms.
void run_loops(TargetResult& r, ItemTable& table, const LoopSettings& loop,
               const std::function<double(bool)>& step) {
  r.warmup = warm_up([&] { return step(false); }, loop);
  std::vector<double> totals;
  r.runs = measure([&] { totals.push_back(step(true)); }, loop);
  r.items = table.take();
  for (auto& item : r.items) item.stats = summarize(item.samples_ms);
  r.iteration = summarize(totals);
  r.throughput = r.iteration.median > 0 ? double(r.batch_size) * 1000.0 / r.iteration.median : 0.0;
  r.peak_bytes = nn::NdArray::peak_bytes();
}

// `take`: the model's parameter list when no later target reads it (ParameterStore::take), else null.
TargetResult profile_optimizer(const nn::ir::Model& model, std::vector<nn::ir::Parameter>* take,
                               const nn::ir::Optimizer& o, const ProfileSettings& settings,
                               TrainDatasets& datasets) {
  TargetResult r;
  r.kind = "optimizer";
  r.name = o.name;
  r.network = o.network_name;
  r.title = "optimizer '" + o.name + "' with network '" + o.network_name + "'";
  const nn::ir::Network* net = model.find_network(o.network_name);
  NN_CHECK(net) << "optimizer " << quoted(o.name) << ": network " << quoted(o.network_name) << " not found";
  nn::NdArray::reset_peak_bytes();

  // The dataset: its batch size, or random data when it cannot be opened.
  std::unique_ptr<nn::train::BatchSource> source;
  int64_t batch = settings.batch_size > 0 ? settings.batch_size : -1;
  std::string why_random = "the optimizer names no dataset";
  for (size_t i = 0; i < model.datasets.size() && !o.dataset_name.empty(); ++i) {
    const nn::ir::Dataset& ds = model.datasets[i];
    if (ds.name != o.dataset_name.front()) continue;
    if (batch <= 0 && ds.batch_size > 0) batch = ds.batch_size;
    try {
      source = datasets.open(ds, int(i), batch > 0 ? batch : 1);
    } catch (const nn::Error& e) {
      why_random = std::string("dataset ") + quoted(ds.name) + " is unavailable (" + e.what() + ")";
    }
  }
  nn::ir::ParameterStore store;
  load_parameters(store, model, take);
  const std::vector<std::string> trainable = nn::train::trainable_parameter_names(o, *net);
  nn::ir::BuildOptions bo;
  bo.batch_size = batch;
  bo.context = settings.context;
  bo.training = true;
  bo.seed = settings.seed;
  nn::ir::BuiltNetwork built =
      nn::with_context("optimizer " + quoted(o.name), [&] { return nn::ir::build_network(*net, store, bo); });
  r.batch_size = built.batch_size;
  name_function_nodes(*net, built);
  std::vector<nn::VariablePtr> losses;
  for (const auto& l : o.loss_variable) losses.push_back(built.get(l.variable_name));
  NN_CHECK(!losses.empty()) << "optimizer " << quoted(o.name) << " has no loss variable";
  nn::Solver::ParameterList plist;
  for (const auto& [name, var] : store.ordered()) var->set_need_grad(false);
  for (const auto& name : trainable)
    if (nn::VariablePtr v = store.find(name)) {
      v->set_need_grad(true);
      plist.push_back({name, v});
    }
  propagate_need_grad(losses);
  r.solver = o.solver.type;
  r.trained_parameters = plist.size();
  auto solver = nn::create_solver(o.solver.type, o.solver.params);
  solver->set_parameters(plist);

  DataFeed feed(o.data_variable, built, std::move(source), settings.seed);
  r.data_note = feed.uses_random() ? "random values of the declared shapes (" + why_random + ")"
                                   : "dataset " + quoted(o.dataset_name.front());
  if (feed.uses_random() && !o.data_variable.empty()) {
    NN_LOG_WARNING << r.title << ": data from " << r.data_note;
  }
  nn::RandomEngine rng(settings.seed);
  ItemTable table;
  FunctionTimer fwd(table, "forward_function", settings.context, settings.function_times);
  FunctionTimer bwd(table, "backward_function", settings.context, settings.function_times);
  const double wd = o.solver.weight_decay;
  nn::NdArray::open_arena();  // built: arrays from the arena from here on, as in training
  auto step = [&](bool record) {
    ItemTable scratch;
    ItemTable& t = record ? table : scratch;
    fwd.recording = bwd.recording = record;
    double total = 0;
    feed.step(t, total);
    total += fill_generators(o.generator_variable, built, rng, t);
    nn::synchronize(settings.context);
    auto t0 = Clock::now();
    nn::forward_all(losses, false, false, fwd.pre(), fwd.post());
    double ms = ms_since(t0);
    t.add("forward_all", ms);
    total += ms;
    t0 = Clock::now();
    solver->zero_grad();
    nn::synchronize(settings.context);
    const double zero_ms = ms_since(t0);
    t.add("prepare_backward", zero_ms);
    t0 = Clock::now();
    for (const auto& loss : losses) loss->backward(nn::RootGrad::kOnes, false, bwd.pre(), bwd.post());
    nn::synchronize(settings.context);
    ms = ms_since(t0);
    t.add("backward_all", ms + zero_ms);
    t.add("backward_all(wo param zero_grad)", ms);
    total += ms + zero_ms;
    if (wd > 0) {
      t0 = Clock::now();
      solver->weight_decay(wd);
      nn::synchronize(settings.context);
      ms = ms_since(t0);
      t.add("weight_decay (" + o.solver.type + ")", ms);
      total += ms;
    }
    t0 = Clock::now();
    solver->update();
    nn::synchronize(settings.context);
    ms = ms_since(t0);
    t.add("update (" + o.solver.type + ")", ms);
    total += ms;
    t0 = Clock::now();
    volatile float sink = 0;
    for (const auto& loss : losses) sink = sink + loss->data()->get<float>()[0];
    ms = ms_since(t0);
    t.add("monitor_loss", ms);
    return total + ms;
  };
  run_loops(r, table, settings.loop, step);
  return r;
}

TargetResult profile_executor(const nn::ir::Model& model, std::vector<nn::ir::Parameter>* take,
                              const nn::ir::Executor& e, const ProfileSettings& settings) {
  TargetResult r;
  r.kind = "executor";
  r.name = e.name;
  r.network = e.network_name;
  r.title = "executor '" + e.name + "' with network '" + e.network_name + "'";
  const nn::ir::Network* net = model.find_network(e.network_name);
  NN_CHECK(net) << "executor " << quoted(e.name) << ": network " << quoted(e.network_name) << " not found";
  nn::NdArray::reset_peak_bytes();
  nn::ir::ParameterStore store;
  load_parameters(store, model, take);
  nn::ir::BuildOptions bo;
  bo.batch_size = settings.batch_size;
  bo.context = settings.context;
  bo.seed = settings.seed;
  nn::ir::BuiltNetwork built =
      nn::with_context("executor " + quoted(e.name), [&] { return nn::ir::build_network(*net, store, bo); });
  r.batch_size = built.batch_size;
  name_function_nodes(*net, built);
  std::vector<std::string> out_names;
  for (const auto& ov : e.output_variable) out_names.push_back(ov.variable_name);
  if (out_names.empty()) out_names = built.outputs;
  std::vector<nn::VariablePtr> outputs;
  for (const auto& name : out_names) outputs.push_back(built.get(name));
  NN_CHECK(!outputs.empty()) << "executor " << quoted(e.name) << " has no output variable";
  DataFeed feed(e.data_variable, built, nullptr, settings.seed);
  r.data_note = "random values of the declared shapes (inference)";
  // The batch as sub-batches on all threads where it splits, as infer and forward run it (executor_runner.cpp).
  std::unique_ptr<BatchSplit> split = BatchSplit::for_executor(e, *net, built, store, bo, out_names);
  if (split) {
    r.batch_size = split->sub_batch() * split->chunks();  // a fixed-shape file declares no batch size
    r.sub_batch = split->sub_batch();
    r.split_threads = split->threads();
    for (int t = 0; t < split->threads(); ++t) name_function_nodes(*net, split->instance(t));
  }
  const double flops = split ? 0 : network_flops(*net, built);
  SplitFunctionTimer split_timer(split ? split->threads() : 0, *net, settings.function_times);
  nn::RandomEngine rng(settings.seed);
  ItemTable table;
  FunctionTimer fwd(table, "forward_function", settings.context, settings.function_times);
  nn::NdArray::open_arena();  // built: activations from the arena from here on, as infer runs
  auto step = [&](bool record) {
    ItemTable scratch;
    ItemTable& t = record ? table : scratch;
    fwd.recording = record;
    double total = 0;
    feed.step(t, total);
    total += fill_generators(e.generator_variable, built, rng, t);
    nn::synchronize(settings.context);
    const auto t0 = Clock::now();
    nn::NoGradScope no_grad;  // as an executor runs (executor_runner.cpp), intermediates freed as they go
    if (split) {
      split->forward(split_timer.hooks());
    } else {
      CallingThreadScope alone(
          run_on_calling_thread(flops));  // as infer runs a small network (executor_runner.cpp)
      nn::forward_all(outputs, /*clear_buffer=*/true, false, fwd.pre(), fwd.post());
    }
    nn::synchronize(settings.context);
    const double ms = ms_since(t0);
    if (split) split_timer.flush(t, record);
    t.add("forward_all", ms);
    return total + ms;
  };
  run_loops(r, table, settings.loop, step);
  return r;
}

}  // namespace

void name_function_nodes(const nn::ir::Network& network, const nn::ir::BuiltNetwork& built) {
  for (const auto& f : network.functions) {
    if (f.outputs.empty()) continue;
    auto it = built.variables.find(f.outputs.front());
    if (it != built.variables.end() && it->second->parent() && it->second->parent()->name.empty())
      it->second->parent()->name = f.name;
  }
}

std::vector<TargetResult> profile_model(nn::ir::Model& model, const ProfileSettings& settings) {
  std::vector<TargetResult> results;
  TrainDatasets datasets;
  const size_t targets =
      (settings.optimizers ? model.optimizers.size() : 0) + (settings.executors ? model.executors.size() : 0);
  // The last target takes the model's weights instead of copying them (one copy in memory while it runs).
  auto take = [&] { return results.size() + 1 == targets ? &model.parameters : nullptr; };
  if (settings.optimizers)
    for (const auto& o : model.optimizers)
      results.push_back(profile_optimizer(model, take(), o, settings, datasets));
  if (settings.executors)
    for (const auto& e : model.executors) results.push_back(profile_executor(model, take(), e, settings));
  return results;
}

}  // namespace nncli::profile
