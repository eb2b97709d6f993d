// Runs one executor of an expanded model: data variables in, generators, repeated evaluations, outputs out.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "batch_split.hpp"
#include "nn/core/context.hpp"
#include "nn/ir/graph_builder.hpp"
#include "nn/ir/model.hpp"

namespace nncli {

struct RunnerOptions {
  int64_t batch_size = -1;    // <= 0: the network's batch size
  bool init_missing = false;  // create parameters absent from the files from their initializers
  uint32_t seed = 0;          // for those parameters and for generator variables
  nn::Context context = nn::cpu_context();
};

struct ExecutorOutput {
  std::string variable_name;
  std::string data_name;
  std::string type;
  nn::Shape shape;
  std::vector<float> values;
};

// The context to run on: the -C value when given (an unavailable backend throws, exit 3), else the model's
// global_config default_context when this build can run it, else cpu.
nn::Context select_context(const std::string& cli_context, const nn::ir::Model& model);

class ExecutorRunner {
 public:
  // Builds the executor's network (inference mode). Throws nn::Error for missing parameters unless
  // options.init_missing, naming the network and the first missing parameters. With `take_parameters` (the
  // model's own list, read by no later runner), the weights move into the runner and the list is left
  // empty, so the process holds one copy of them instead of two.
  ExecutorRunner(const nn::ir::Model& model, const nn::ir::Executor& executor, const RunnerOptions& options,
                 std::vector<nn::ir::Parameter>* take_parameters = nullptr);

  const nn::ir::Executor& executor() const { return executor_; }
  int64_t batch_size() const { return network_.batch_size; }
  size_t num_inputs() const { return executor_.data_variable.size(); }
  // Name and built (batch-substituted) shape of data variable i.
  const std::string& input_name(size_t i) const { return executor_.data_variable[i].variable_name; }
  const nn::Shape& input_shape(size_t i) const;
  // values must hold exactly shape_size(input_shape(i)) elements.
  void set_input(size_t i, const std::vector<float>& values) { set_input(i, values.data(), values.size()); }
  void set_input(size_t i, const float* values, size_t count);
  size_t num_outputs() const { return outputs_.size(); }
  // Built shape of output variable i (known before the first run).
  const nn::Shape& output_shape(size_t i) const;

  // > 0: the batch runs as sub-batches of this many samples on all threads (batch_split.hpp).
  int64_t sub_batch() const { return split_ ? split_->sub_batch() : 0; }

  // Forward num_evaluations times (at least once), combined per repeat_evaluation_type:
  // "last", "std" (sqrt(E[x^2] - E[x]^2), NaN -> 0) or the mean.
  std::vector<ExecutorOutput> run();

 private:
  void fill_generators();

  nn::ir::Executor executor_;
  nn::ir::ParameterStore params_;
  nn::ir::BuiltNetwork network_;
  std::vector<nn::VariablePtr> inputs_, outputs_, generators_;
  nn::RandomEngine rng_;
  std::unique_ptr<BatchSplit> split_;  // the batch run as sub-batches on all threads, when it splits
};

}  // namespace nncli
