// Helpers of the inference passes (see inference_pass_common.hpp).
#include "inference_pass_common.hpp"

namespace nn::formats::pass_common {

std::set<std::string> trained_networks(const ir::Model& model) {
  std::set<std::string> names;
  for (const auto& o : model.optimizers) names.insert(o.network_name);
  return names;
}

std::set<std::string> interface_variables(const ir::Model& model) {
  std::set<std::string> names;
  auto add_data = [&](const auto& list) {
    for (const auto& v : list) names.insert(v.variable_name);
  };
  for (const auto& e : model.executors) {
    add_data(e.data_variable);
    add_data(e.generator_variable);
    add_data(e.loss_variable);
    add_data(e.output_variable);
  }
  for (const auto& o : model.optimizers) {
    add_data(o.data_variable);
    add_data(o.generator_variable);
    add_data(o.loss_variable);
  }
  for (const auto& m : model.monitors) {
    add_data(m.data_variable);
    add_data(m.generator_variable);
    add_data(m.monitor_variable);
  }
  return names;
}

std::map<std::string, int> consumer_counts(const ir::Network& network) {
  std::map<std::string, int> counts;
  for (const auto& f : network.functions)
    for (const auto& in : f.inputs) ++counts[in];
  return counts;
}

void erase_variable(ir::Network& network, const std::string& name) {
  for (auto it = network.variables.begin(); it != network.variables.end(); ++it)
    if (it->name == name) {
      network.variables.erase(it);
      return;
    }
}

}  // namespace nn::formats::pass_common
