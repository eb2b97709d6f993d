// Helpers of the inference passes (see inference_pass_common.hpp).
#include "inference_pass_common.hpp"

#include <algorithm>

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

ir::Parameter* find_param(ir::Model& model, const std::string& name) {
  for (auto& p : model.parameters)
    if (p.name == name) return &p;
  return nullptr;
}

const ir::Parameter* find_param(const ir::Model& model, const std::string& name) {
  return find_param(const_cast<ir::Model&>(model), name);
}

std::optional<float> single_value(const ir::Parameter* p) {
  if (!p || p->data.empty() ||
      std::any_of(p->data.begin(), p->data.end(), [&](float v) { return v != p->data[0]; }))
    return std::nullopt;
  return p->data[0];
}

void put_parameter(ir::Model& model, ir::Network& network, const std::string& name, const Shape& shape,
                   std::vector<float> data) {
  if (ir::Parameter* p = find_param(model, name)) {
    p->shape = shape;
    p->data = std::move(data);
  } else {
    model.parameters.push_back(ir::Parameter{name, shape, std::move(data), false});
  }
  if (ir::Variable* v = network.find_variable(name)) {
    v->type = "Parameter";
    v->shape = shape;
  } else {
    ir::Variable added;
    added.name = name;
    added.type = "Parameter";
    added.shape = shape;
    network.variables.push_back(std::move(added));
  }
}

size_t sole_consumer(const ir::Network& network, const std::string& var, const std::map<std::string, int>& uses,
                     const std::set<std::string>& interface) {
  auto it = uses.find(var);
  if (it == uses.end() || it->second != 1 || interface.count(var)) return kNoFunction;
  for (size_t j = 0; j < network.functions.size(); ++j)
    for (const auto& in : network.functions[j].inputs)
      if (in == var) return j;
  return kNoFunction;
}

}  // namespace nn::formats::pass_common
