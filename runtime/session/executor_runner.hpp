// Runs one executor of an expanded model: data variables in, generators, repeated evaluations, outputs out.
#pragma once
#include <map>
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
  // Parameters of another runner of the same model: those equal to this one's are shared, not held twice (an
  // ONNX model imported again at new input shapes keeps one copy of its weights).
  const nn::ir::ParameterStore* share_parameters = nullptr;
  // The parameters themselves, used as they are instead of the model's (whose list then names them only): a
  // model built from a ShapeTemplate, whose weights are those of an earlier import.
  const nn::ir::ParameterStore* parameters = nullptr;
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

class ExecutorRunner;

// What nncli::Model and nncli infer load: the executor `executor` ("" = the first) of `files` (an .nnb, or model
// files as import_model takes them, with the inference passes when `optimize`), on `context` (select_context's
// -C). Inputs named in `shapes` take those shapes: an ONNX model is imported at them, others run at them.
// `executors`, when given, receives every executor's name.
// (Pairs, not a map: the embedding library instantiates no standard container of its own, which would be
// exported with it.)
using NamedShapes = std::vector<std::pair<std::string, nn::Shape>>;
std::unique_ptr<ExecutorRunner> load_runner(const std::vector<std::string>& files, const std::string& executor,
                                            const std::string& context, RunnerOptions options,
                                            const NamedShapes& shapes, bool optimize,
                                            std::vector<std::string>* executors = nullptr);

class ExecutorRunner {
 public:
  // Builds the executor's network (inference mode). Throws nn::Error for missing parameters unless
  // options.init_missing, naming the network and the first missing parameters. With `take_parameters` (the
  // model's own list, read by no later runner), the weights move into the runner and the list is left
  // empty, so the process holds one copy of them instead of two.
  ExecutorRunner(const nn::ir::Model& model, const nn::ir::Executor& executor, const RunnerOptions& options,
                 std::vector<nn::ir::Parameter>* take_parameters = nullptr);
  ~ExecutorRunner();

  const nn::ir::Executor& executor() const { return executor_; }
  const nn::ir::ParameterStore& parameters() const { return params_; }
  int64_t batch_size() const;
  size_t num_inputs() const { return executor_.data_variable.size(); }
  // Name and shape of data variable i (as built: batch-substituted; or as set by set_input_shapes).
  const std::string& input_name(size_t i) const { return executor_.data_variable[i].variable_name; }
  const nn::Shape& input_shape(size_t i) const;
  // Runs from now on take inputs of these shapes (one per data variable, each of the built shape's rank):
  // shapes are inferred again through the network, which throws naming the first function that cannot take
  // them. Each set of shapes keeps its own instance of the network (functions set up, kernels' plans and
  // cached copies, sharing the parameters), so returning to shapes seen before costs no setup; the least
  // recently used of more than kMaxShapePlans is dropped.
  void set_input_shapes(const std::vector<nn::Shape>& shapes);
  // The same for the data variables named in `by_name` (the others keep their current shapes); an unknown name
  // throws listing the data variables.
  void set_input_shapes(const std::map<std::string, nn::Shape>& by_name);
  static constexpr size_t kMaxShapePlans = 8;
  size_t shape_plans() const { return plans_.size(); }  // instances kept, one per set of input shapes
  // values must hold exactly shape_size(input_shape(i)) elements.
  void set_input(size_t i, const std::vector<float>& values) { set_input(i, values.data(), values.size()); }
  void set_input(size_t i, const float* values, size_t count);
  size_t num_outputs() const { return executor_.output_variable.size(); }
  // Shape of output i as set up for the current input shapes (known before the run; after a run, an output
  // whose size follows the data, such as NonZero's, has the size of that run).
  const nn::Shape& output_shape(size_t i) const;

  // > 0: the batch runs as sub-batches of this many samples on all threads (batch_split.hpp).
  int64_t sub_batch() const;

  // Forward num_evaluations times (at least once), combined per repeat_evaluation_type:
  // "last", "std" (sqrt(E[x^2] - E[x]^2), NaN -> 0) or the mean.
  std::vector<ExecutorOutput> run();

 private:
  struct ShapePlan;
  std::unique_ptr<ShapePlan> build_plan(int64_t batch_size) const;
  void fill_generators();

  nn::ir::Executor executor_;
  nn::ir::Network network_;  // the executor's network, built again for each new set of input shapes
  nn::ir::BuildOptions build_;
  std::vector<std::string> out_names_;
  mutable nn::ir::ParameterStore params_;          // shared by every plan
  std::vector<std::unique_ptr<ShapePlan>> plans_;  // the plan built at load first
  ShapePlan* plan_ = nullptr;                      // the plan runs use
  uint64_t uses_ = 0;                              // plans remember the use count of their last use
  nn::RandomEngine rng_;
};

}  // namespace nncli
