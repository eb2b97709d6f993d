// Builds runnable libnn graphs from an (expanded) ir::Network, with a shared parameter store.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "nn/core/context.hpp"
#include "nn/core/random.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ir/model.hpp"

namespace nn::ir {

// Parameters by name, shared by every network built from one model (nnabla's parameter scope).
class ParameterStore {
 public:
  // Loads every ir::Parameter (shape-checked against the data).
  void load(const std::vector<Parameter>& params);
  // As load, freeing each parameter's data in `params` once it is copied (the list is left empty): a model
  // whose weights now live here holds no second copy while the network runs.
  void take(std::vector<Parameter>& params);
  // Replaces each parameter that `other` holds under the same name with the same shape, need_grad and values
  // by other's variable, so two stores built from one file (an ONNX model imported again at other input shapes)
  // hold its weights once. Returns the bytes no longer held twice.
  size_t share_equal_from(const ParameterStore& other);
  // Existing variable, or nullptr.
  VariablePtr find(const std::string& name) const;
  // Returns the parameter; creates and initializes it from `init` (seeded rng) when absent.
  // Throws when it exists with another shape (naming both shapes).
  VariablePtr get_or_create(const std::string& name, const Shape& shape, const Initializer& init,
                            RandomEngine& rng);
  const std::vector<std::pair<std::string, VariablePtr>>& ordered() const { return ordered_; }
  // Back to ir::Parameter (for saving), in creation order.
  std::vector<Parameter> to_ir() const;

 private:
  void add(const Parameter& p);
  std::map<std::string, VariablePtr> by_name_;
  std::vector<std::pair<std::string, VariablePtr>> ordered_;
};

struct BuildOptions {
  int64_t batch_size = -1;  // -1: the network's batch_size (then 1 when that is 0 too)
  nn::Context context;      // backend preference (nn::Context, not the file's ir::Context)
  bool training = false;    // false: Dropout etc. become identity, BN uses running stats (batch_stat=false)
  uint32_t seed = 0;        // for parameters created from initializers
  // Each function runs on its inputs' current values once it is set up (sub-networks: a function whose output
  // size follows values, such as ONNXConstantOfShape of a Shape, then sets up what reads it from real values).
  bool run_while_building = false;
};

// A built network: every named variable of the file, in file order of the network's variables.
struct BuiltNetwork {
  std::string name;
  int64_t batch_size = 1;
  std::map<std::string, VariablePtr> variables;
  std::vector<std::string> inputs;                 // Buffer variables read but never produced, in file order
  std::vector<std::string> outputs;                // variables produced but never read, in file order
  VariablePtr get(const std::string& name) const;  // throws naming the network and the variable
};

// network must already be expanded (no repeat_info). Throws nn::Error with context
// "network 'N': function 'F' (Type): ..." on unknown function types, arguments or shape mismatches.
BuiltNetwork build_network(const Network& network, ParameterStore& params, const BuildOptions& options);

// The graphs of f's sub-networks (ir::SubNetwork), built for Function::set_subgraphs.
std::vector<SubGraph> build_subgraphs(const Function& f, const BuildOptions& options);

}  // namespace nn::ir
