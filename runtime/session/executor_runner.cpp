// Executor runs: inputs, generators, repeated evaluations.
#include "executor_runner.hpp"

#include <algorithm>
#include <cmath>

#include "calling_thread.hpp"
#include "formats/passes/export_target.hpp"
#include "model_session.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/graph/grad_mode.hpp"
#include "nn/ir/initializer.hpp"
#include "nnb_runner.hpp"
#include "formats/common/file_format.hpp"

namespace nncli {

namespace {
std::string single_quoted(const std::string& s) { return "'" + s + "'"; }

std::string list_names(const std::vector<std::string>& names, size_t limit) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < limit; ++i) out += (i ? ", " : "") + single_quoted(names[i]);
  if (names.size() > limit) out += " and " + std::to_string(names.size() - limit) + " more";
  return out;
}
}  // namespace

nn::Context select_context(const std::string& cli_context, const nn::ir::Model& model) {
  if (!cli_context.empty()) {
    nn::Context ctx = nn::parse_context(cli_context);
    nn::check_context_available(ctx);
    return ctx;
  }
  nn::Context ctx;
  if (model.default_context && !model.default_context->backends.empty()) {
    ctx.backends = model.default_context->backends;
    try {
      ctx.device_id = std::stoi(model.default_context->device_id);
    } catch (const std::exception&) {
      ctx.device_id = 0;
    }
  }
  return nn::context_or_cpu(ctx);
}

// One instance of the executor's network for one set of input shapes.
struct ExecutorRunner::ShapePlan {
  int64_t batch_size = 1;
  nn::ir::BuiltNetwork network;
  std::vector<nn::VariablePtr> inputs, outputs, generators;
  std::unique_ptr<BatchSplit> split;  // the batch run as sub-batches on all threads, when it splits
  double flops = 0;                   // per pass: small work runs on the calling thread (calling_thread.hpp)
  uint64_t last_use = 0;
};

ExecutorRunner::ExecutorRunner(const nn::ir::Model& model, const nn::ir::Executor& executor,
                               const RunnerOptions& options, std::vector<nn::ir::Parameter>* take_parameters)
    : executor_(executor), network_(nn::formats::executor_network(model, executor)), rng_(options.seed) {
  std::vector<std::string> missing = missing_parameters(model, network_);
  NN_CHECK(missing.empty() || options.init_missing)
      << "network " << single_quoted(network_.name) << ": " << (missing.size() == 1 ? "parameter " : "parameters ")
      << list_names(missing, 3) << (missing.size() == 1 ? " is" : " are")
      << " not in the model files (give the parameter file too, or --init-missing to initialize)";
  if (options.parameters)
    params_ = *options.parameters;
  else
    load_parameters(params_, model, take_parameters);
  if (options.share_parameters) {
    const size_t shared = params_.share_equal_from(*options.share_parameters);
    NN_LOG_DEBUG << "executor " << single_quoted(executor.name) << ": " << shared << " bytes of parameters shared";
  }
  build_.batch_size = options.batch_size;
  build_.context = options.context;
  build_.training = false;
  build_.seed = options.seed;
  for (const auto& o : executor_.output_variable) out_names_.push_back(o.variable_name);
  NN_CHECK(!out_names_.empty()) << "executor " << single_quoted(executor_.name) << " has no output variable";
  auto plan = build_plan(options.batch_size);
  plan->split = BatchSplit::for_executor(executor_, network_, plan->network, params_, build_, out_names_);
  plan_ = plan.get();
  plans_.push_back(std::move(plan));
  if (executor_.need_back_propagation) {
    NN_LOG_VERBOSE << "executor " << single_quoted(executor_.name)
                   << ": need_back_propagation ignored (forward only)";
  }
}

ExecutorRunner::~ExecutorRunner() = default;

std::unique_ptr<ExecutorRunner::ShapePlan> ExecutorRunner::build_plan(int64_t batch_size) const {
  auto plan = std::make_unique<ShapePlan>();
  nn::ir::BuildOptions build = build_;
  build.batch_size = batch_size;
  plan->network = nn::ir::build_network(network_, params_, build);
  plan->batch_size = plan->network.batch_size;
  for (const auto& d : executor_.data_variable) plan->inputs.push_back(plan->network.get(d.variable_name));
  for (const auto& g : executor_.generator_variable)
    plan->generators.push_back(plan->network.get(g.variable_name));
  for (const auto& name : out_names_) plan->outputs.push_back(plan->network.get(name));
  plan->flops = network_flops(network_, plan->network);
  NN_LOG_VERBOSE << "network " << single_quoted(network_.name) << ": " << plan->flops / 1e6 << " MFLOP per pass";
  return plan;
}

void ExecutorRunner::set_input_shapes(const std::vector<nn::Shape>& shapes) {
  NN_CHECK(shapes.size() == num_inputs())
      << "executor " << single_quoted(executor_.name) << " has " << num_inputs() << " data variable(s), "
      << shapes.size() << " input shape(s) given";
  plan_->last_use = ++uses_;
  auto same_shapes = [&](const ShapePlan& p) {
    for (size_t i = 0; i < shapes.size(); ++i)
      if (p.inputs[i]->shape() != shapes[i]) return false;
    return true;
  };
  for (auto& p : plans_) {
    if (!same_shapes(*p)) continue;
    plan_ = p.get();
    return;
  }
  const ShapePlan& first = *plans_.front();
  for (size_t i = 0; i < shapes.size(); ++i) {
    const nn::Shape& built = first.inputs[i]->shape();
    const bool same_rank = shapes[i].size() == built.size();
    NN_CHECK(same_rank && nn::shape_size(shapes[i]) > 0)
        << "input " << single_quoted(input_name(i)) << ": shape " << nn::to_string(shapes[i])
        << (same_rank ? " is empty" : " has another number of axes than the network's " + nn::to_string(built));
  }
  // The batch follows the first input's first axis where that axis is the batch as built.
  const nn::Shape& first_built = first.inputs.empty() ? nn::Shape{} : first.inputs[0]->shape();
  const bool batched = !first_built.empty() && first_built[0] == first.batch_size;
  auto plan = build_plan(batched ? shapes[0][0] : first.batch_size);
  for (size_t i = 0; i < shapes.size(); ++i) plan->inputs[i]->reshape(shapes[i], true);
  std::string given;
  for (size_t i = 0; i < shapes.size(); ++i)
    given += (i ? ", " : "") + single_quoted(input_name(i)) + " " + nn::to_string(shapes[i]);
  nn::with_context("network " + single_quoted(network_.name) + " at input shapes " + given,
                   [&] { nn::setup_changed(plan->outputs); });
  if (plans_.size() >= kMaxShapePlans) {  // drop the least recently used plan but the first
    auto oldest = std::min_element(plans_.begin() + 1, plans_.end(),
                                   [](const auto& a, const auto& b) { return a->last_use < b->last_use; });
    plans_.erase(oldest);
  }
  plan_ = plan.get();
  plans_.push_back(std::move(plan));
  NN_LOG_VERBOSE << "executor " << single_quoted(executor_.name) << ": set up for input shapes " << given;
}

void ExecutorRunner::set_input_shapes(const std::map<std::string, nn::Shape>& by_name) {
  std::vector<nn::Shape> shapes;
  std::vector<std::string> names;
  for (size_t i = 0; i < num_inputs(); ++i) {
    names.push_back(input_name(i));
    auto it = by_name.find(input_name(i));
    shapes.push_back(it == by_name.end() ? input_shape(i) : it->second);
  }
  for (const auto& [name, shape] : by_name)
    NN_CHECK_CODE(std::find(names.begin(), names.end(), name) != names.end(), nn::ErrorCode::kUsage)
        << "executor " << single_quoted(executor_.name) << " has no data variable " << single_quoted(name)
        << " (its data variables: " << list_names(names, names.size()) << ")";
  set_input_shapes(shapes);
}

const nn::Shape& ExecutorRunner::input_shape(size_t i) const { return plan_->inputs.at(i)->shape(); }
const nn::Shape& ExecutorRunner::output_shape(size_t i) const { return plan_->outputs.at(i)->shape(); }
int64_t ExecutorRunner::batch_size() const { return plan_->batch_size; }
int64_t ExecutorRunner::sub_batch() const { return plan_->split ? plan_->split->sub_batch() : 0; }

void ExecutorRunner::set_input(size_t i, const float* values, size_t count) {
  nn::VariablePtr var = plan_->inputs.at(i);
  NN_INTERNAL_CHECK(int64_t(count) == var->size()) << "input size";
  std::copy(values, values + count, var->data()->cast<float>(true));
}

void ExecutorRunner::fill_generators() {
  for (size_t i = 0; i < plan_->generators.size(); ++i) {
    const auto& g = executor_.generator_variable[i];
    NN_CHECK(g.type == "Normal" || g.type == "Uniform" || g.type == "Constant")
        << "generator variable " << single_quoted(g.variable_name) << ": generator type \"" << g.type
        << "\" is not supported.";
    nn::VariablePtr var = plan_->generators[i];
    nn::initialize_parameter(g.type, g.multiplier, var->shape(), var->data()->cast<float>(true), rng_);
  }
}

std::vector<ExecutorOutput> ExecutorRunner::run() {
  const int64_t evaluations = std::max<int64_t>(executor_.num_evaluations, 1);
  const std::string& mode = executor_.repeat_evaluation_type;
  std::vector<std::vector<double>> sum(num_outputs()), sum_sq(num_outputs());
  std::vector<ExecutorOutput> result(num_outputs());
  nn::NdArray::open_arena();  // the model is loaded: activations from the arena from here on
  for (int64_t e = 0; e < evaluations; ++e) {
    fill_generators();
    nn::NoGradScope no_grad;  // an executor only runs forward: kernels may fuse and keep their own layouts
    if (plan_->split)
      plan_->split->forward();
    else {
      CallingThreadScope alone(run_on_calling_thread(plan_->flops));
      nn::forward_all(plan_->outputs, /*clear_buffer=*/true);  // intermediates freed once their last reader ran
    }
    for (size_t o = 0; o < num_outputs(); ++o) {
      std::vector<float> values = plan_->outputs[o]->data()->to_vector();
      if (evaluations == 1 || mode == "last") {
        result[o].values = std::move(values);
        continue;
      }
      sum[o].resize(values.size(), 0.0);
      sum_sq[o].resize(values.size(), 0.0);
      for (size_t k = 0; k < values.size(); ++k) {
        sum[o][k] += values[k];
        sum_sq[o][k] += double(values[k]) * values[k];
      }
    }
  }
  for (size_t o = 0; o < num_outputs(); ++o) {
    const auto& spec = executor_.output_variable[o];
    result[o].variable_name = spec.variable_name;
    result[o].data_name = spec.data_name;
    result[o].type = spec.type;
    result[o].shape = plan_->outputs[o]->shape();
    if (evaluations == 1 || mode == "last") continue;
    result[o].values.resize(sum[o].size());
    for (size_t k = 0; k < sum[o].size(); ++k) {
      const double mean = sum[o][k] / double(evaluations);
      double v = mean;
      if (mode == "std") {
        v = std::sqrt(sum_sq[o][k] / double(evaluations) - mean * mean);
        if (std::isnan(v)) v = 0.0;
      }
      result[o].values[k] = float(v);
    }
  }
  return result;
}

std::unique_ptr<ExecutorRunner> load_runner(const std::vector<std::string>& files, const std::string& executor,
                                            const std::string& context, RunnerOptions options,
                                            const NamedShapes& shapes, bool optimize,
                                            std::vector<std::string>* executors) {
  const bool onnx = nn::formats::file_extension(files.front()) == "onnx";
  ImportOptions import;
  import.optimize = optimize;
  if (onnx) import.input_shapes = {shapes.begin(), shapes.end()};
  nn::ir::Model model = is_nnb_file(files.front()) ? load_nnb_model(files.front()) : import_model(files, import);
  if (executors)
    for (const auto& e : model.executors) executors->push_back(e.name);
  const nn::ir::Executor& chosen = find_executor(model, executor);
  options.context = select_context(context, model);
  auto runner = nn::with_context(single_quoted(files.front()), [&] {
    return std::make_unique<ExecutorRunner>(model, chosen, options, &model.parameters);
  });
  if (!onnx && !shapes.empty())
    runner->set_input_shapes(std::map<std::string, nn::Shape>(shapes.begin(), shapes.end()));
  return runner;
}

}  // namespace nncli
