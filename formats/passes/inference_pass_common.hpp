// What the inference passes share: which networks and variables they must leave alone, and graph edits.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::formats::pass_common {

// Networks an optimizer trains: their BatchNormalization uses batch statistics and their parameters learn.
std::set<std::string> trained_networks(const ir::Model& model);
// Calls edit(network) for each network of the model that no optimizer trains: those the passes rewrite.
template <class Edit>
void for_inference_networks(ir::Model& model, Edit&& edit) {
  const auto trained = trained_networks(model);
  for (auto& network : model.networks)
    if (!trained.count(network.name)) edit(network);
}
// Variables named by executors, optimizers and monitors (inputs, outputs, losses): never renamed or removed.
std::set<std::string> interface_variables(const ir::Model& model);
// How many function inputs read each variable.
std::map<std::string, int> consumer_counts(const ir::Network& network);
// Removes a variable from the network's list (no-op when absent).
void erase_variable(ir::Network& network, const std::string& name);
// The model's parameter of that name, or null.
ir::Parameter* find_param(ir::Model& model, const std::string& name);
const ir::Parameter* find_param(const ir::Model& model, const std::string& name);
// The value of a parameter holding one value however often repeated (a constant as the ONNX importer broadcasts
// it), or nullopt (also for a null or empty parameter).
std::optional<float> single_value(const ir::Parameter* p);
// Adds (or replaces) a parameter and its network variable.
void put_parameter(ir::Model& model, ir::Network& network, const std::string& name, const Shape& shape,
                   std::vector<float> data);

// "No function" for the index searches below.
constexpr size_t kNoFunction = size_t(-1);
// The only function reading `var` (kNoFunction when none, several, or var is an interface variable).
size_t sole_consumer(const ir::Network& network, const std::string& var, const std::map<std::string, int>& uses,
                     const std::set<std::string>& interface);

}  // namespace nn::formats::pass_common
