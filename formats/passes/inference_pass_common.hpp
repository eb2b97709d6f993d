// What the inference passes share: which networks and variables they must leave alone, and graph edits.
#pragma once
#include <map>
#include <set>
#include <string>

#include "nn/ir/model.hpp"

namespace nn::formats::pass_common {

// Networks an optimizer trains: their BatchNormalization uses batch statistics and their parameters learn.
std::set<std::string> trained_networks(const ir::Model& model);
// Variables named by executors, optimizers and monitors (inputs, outputs, losses): never renamed or removed.
std::set<std::string> interface_variables(const ir::Model& model);
// How many function inputs read each variable.
std::map<std::string, int> consumer_counts(const ir::Network& network);
// Removes a variable from the network's list (no-op when absent).
void erase_variable(ir::Network& network, const std::string& name);

}  // namespace nn::formats::pass_common
