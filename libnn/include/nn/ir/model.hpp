// ir::Model: the format-neutral model every format reads into and writes from (mirrors nnabla.proto).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nn/core/shape.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::ir {

struct Context {
  std::vector<std::string> backends;  // e.g. "cudnn:float", "cpu:float"
  std::string array_class;
  std::string device_id;
  std::string backend;          // obsolete ("cpu|cuda")
  std::string compute_backend;  // obsolete ("default|cudnn")
};

struct Initializer {
  std::string type;  // "" = none
  double multiplier = 0.0;
};

struct Variable {
  std::string name;
  std::string type = "Buffer";  // "Buffer" or "Parameter"
  std::vector<std::string> repeat_id;
  Shape shape;  // -1 = batch dimension
  Initializer initializer;
};

struct RepeatParam {
  std::string repeat_id;
  int64_t times = 0;
};
struct RecurrentParam {
  std::string repeat_id;
  int64_t length = 0;
  int64_t axis = 0;
};

struct SubNetwork;

struct Function {
  std::string name;
  std::string type;
  std::vector<std::string> repeat_id;
  std::optional<Context> context;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::optional<RepeatParam> repeat_param;
  std::optional<RecurrentParam> recurrent_param;
  bool has_param = false;  // a <snake>_param message was present (even if empty)
  Attrs attrs;             // arguments of the <snake>_param message by name
  // Networks the function runs itself (an ONNX Loop's body), built with it; no NNP message holds them.
  std::vector<std::shared_ptr<const SubNetwork>> subnetworks;
};

struct RepeatInfo {
  std::string id;
  int64_t times = 0;
};

struct Network {
  std::string name;
  int64_t batch_size = 0;
  std::vector<RepeatInfo> repeat_info;
  std::vector<Variable> variables;
  std::vector<Function> functions;

  const Variable* find_variable(const std::string& n) const;
  Variable* find_variable(const std::string& n);
};

// A network a function runs (Function::subnetworks): its inputs and outputs in the order the function binds them.
// Every input is a Buffer variable the function fills; every output is produced by one of its functions.
struct SubNetwork {
  Network network;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
};

struct Parameter {
  std::string name;
  Shape shape;
  std::vector<float> data;
  bool need_grad = false;
};

struct DataVariable {
  std::string variable_name;
  std::string data_name;
};
struct GeneratorVariable {
  std::string variable_name;
  std::string type;
  double multiplier = 0.0;
};
struct LossVariable {
  std::string variable_name;
};
struct ParameterVariable {
  std::string variable_name;
  double learning_rate_multiplier = 0.0;
};
struct OutputVariable {
  std::string variable_name;
  std::string type;
  std::string data_name;
};
struct MonitorVariable {
  std::string variable_name;
  std::string type;
  std::string data_name;
  double multiplier = 0.0;
};

struct SolverStateParameter {
  Shape shape;
  std::vector<float> data;
};
struct SolverState {
  uint32_t t = 0;
  std::map<std::string, SolverStateParameter> state_parameter;
};

struct Solver {
  std::string type;  // "Adam", "Sgd", ...
  std::optional<Context> context;
  double weight_decay = 0.0;
  double lr_decay = 0.0;
  int64_t lr_decay_interval = 0;
  std::map<std::string, SolverState> states;
  std::string param_name;  // the oneof member present, e.g. "adam_param"
  Attrs params;            // its fields by name (alpha, beta1, ...)
  std::string lr_scheduler_type;
  Attrs lr_scheduler_params;  // fields of the *_scheduler_param present
  std::string lr_scheduler_param_name;
  std::string lr_warmup_scheduler_type;
  int64_t warmup_iter = 0;
};

struct Optimizer {
  std::string name;
  int64_t order = 0;
  std::string network_name;
  std::vector<std::string> dataset_name;
  Solver solver;
  int64_t update_interval = 0;
  std::vector<DataVariable> data_variable;
  std::vector<GeneratorVariable> generator_variable;
  std::vector<LossVariable> loss_variable;
  std::vector<ParameterVariable> parameter_variable;
  int64_t start_iter = 0;
  int64_t end_iter = 0;
};

struct Dataset {
  std::string name;
  std::string type;
  std::string uri;
  int64_t batch_size = 0;
  std::string cache_dir;
  bool overwrite_cache = false;
  bool create_cache_explicitly = false;
  bool shuffle = false;
  bool no_image_normalization = false;
  std::vector<std::string> variable;
};

struct Monitor {
  std::string name;
  std::string network_name;
  std::vector<std::string> dataset_name;
  std::vector<DataVariable> data_variable;
  std::vector<GeneratorVariable> generator_variable;
  std::vector<MonitorVariable> monitor_variable;
};

struct Executor {
  std::string name;
  std::string network_name;
  int64_t num_evaluations = 0;
  std::string repeat_evaluation_type;
  bool need_back_propagation = false;
  std::vector<DataVariable> data_variable;
  std::vector<GeneratorVariable> generator_variable;
  std::vector<LossVariable> loss_variable;
  std::vector<OutputVariable> output_variable;
  std::vector<ParameterVariable> parameter_variable;
  bool no_image_normalization = false;
};

struct TrainingConfig {
  int64_t max_epoch = 0;
  int64_t iter_per_epoch = 0;
  bool save_best = false;
  int64_t monitor_interval = 0;
};

struct Model {
  std::string version;
  std::optional<Context> default_context;
  std::optional<TrainingConfig> training_config;
  std::vector<Network> networks;
  std::vector<Parameter> parameters;
  std::vector<Dataset> datasets;
  std::vector<Optimizer> optimizers;
  std::vector<Monitor> monitors;
  std::vector<Executor> executors;

  const Network* find_network(const std::string& n) const;
  const Executor* find_executor(const std::string& n) const;
  const Parameter* find_parameter(const std::string& n) const;
};

}  // namespace nn::ir
