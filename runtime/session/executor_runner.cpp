// Executor runs: inputs, generators, repeated evaluations.
#include "executor_runner.hpp"

#include <cmath>

#include "formats/passes/export_target.hpp"
#include "model_session.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/graph/grad_mode.hpp"
#include "nn/ir/initializer.hpp"

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

ExecutorRunner::ExecutorRunner(const nn::ir::Model& model, const nn::ir::Executor& executor,
                               const RunnerOptions& options, std::vector<nn::ir::Parameter>* take_parameters)
    : executor_(executor), rng_(options.seed) {
  const nn::ir::Network& network = nn::formats::executor_network(model, executor);
  std::vector<std::string> missing = missing_parameters(model, network);
  NN_CHECK(missing.empty() || options.init_missing)
      << "network " << single_quoted(network.name) << ": " << (missing.size() == 1 ? "parameter " : "parameters ")
      << list_names(missing, 3) << (missing.size() == 1 ? " is" : " are")
      << " not in the model files (give the parameter file too, or --init-missing to initialize)";
  load_parameters(params_, model, take_parameters);
  nn::ir::BuildOptions build;
  build.batch_size = options.batch_size;
  build.context = options.context;
  build.training = false;
  build.seed = options.seed;
  network_ = nn::ir::build_network(network, params_, build);
  for (const auto& d : executor_.data_variable) inputs_.push_back(network_.get(d.variable_name));
  for (const auto& g : executor_.generator_variable) generators_.push_back(network_.get(g.variable_name));
  std::vector<std::string> out_names;
  for (const auto& o : executor_.output_variable) {
    out_names.push_back(o.variable_name);
    outputs_.push_back(network_.get(o.variable_name));
  }
  NN_CHECK(!outputs_.empty()) << "executor " << single_quoted(executor_.name) << " has no output variable";
  split_ = BatchSplit::for_executor(executor_, network, network_, params_, build, out_names);
  if (executor_.need_back_propagation) {
    NN_LOG_VERBOSE << "executor " << single_quoted(executor_.name)
                   << ": need_back_propagation ignored (forward only)";
  }
}

const nn::Shape& ExecutorRunner::input_shape(size_t i) const { return inputs_.at(i)->shape(); }
const nn::Shape& ExecutorRunner::output_shape(size_t i) const { return outputs_.at(i)->shape(); }

void ExecutorRunner::set_input(size_t i, const float* values, size_t count) {
  nn::VariablePtr var = inputs_.at(i);
  NN_INTERNAL_CHECK(int64_t(count) == var->size()) << "input size";
  std::copy(values, values + count, var->data()->cast<float>(true));
}

void ExecutorRunner::fill_generators() {
  for (size_t i = 0; i < generators_.size(); ++i) {
    const auto& g = executor_.generator_variable[i];
    NN_CHECK(g.type == "Normal" || g.type == "Uniform" || g.type == "Constant")
        << "generator variable " << single_quoted(g.variable_name) << ": generator type \"" << g.type
        << "\" is not supported.";
    nn::VariablePtr var = generators_[i];
    nn::initialize_parameter(g.type, g.multiplier, var->shape(), var->data()->cast<float>(true), rng_);
  }
}

std::vector<ExecutorOutput> ExecutorRunner::run() {
  const int64_t evaluations = std::max<int64_t>(executor_.num_evaluations, 1);
  const std::string& mode = executor_.repeat_evaluation_type;
  std::vector<std::vector<double>> sum(outputs_.size()), sum_sq(outputs_.size());
  std::vector<ExecutorOutput> result(outputs_.size());
  nn::NdArray::open_arena();  // the model is loaded: activations from the arena from here on
  for (int64_t e = 0; e < evaluations; ++e) {
    fill_generators();
    nn::NoGradScope no_grad;  // an executor only runs forward: kernels may fuse and keep their own layouts
    if (split_)
      split_->forward();
    else
      nn::forward_all(outputs_, /*clear_buffer=*/true);  // intermediates freed once their last reader ran
    for (size_t o = 0; o < outputs_.size(); ++o) {
      std::vector<float> values = outputs_[o]->data()->to_vector();
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
  for (size_t o = 0; o < outputs_.size(); ++o) {
    const auto& spec = executor_.output_variable[o];
    result[o].variable_name = spec.variable_name;
    result[o].data_name = spec.data_name;
    result[o].type = spec.type;
    result[o].shape = outputs_[o]->shape();
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

}  // namespace nncli
