// ir::Model lookups by name.
#include "nn/ir/model.hpp"

namespace nn::ir {

namespace {
template <class Vec>
auto find_by_name(Vec& items, const std::string& n) -> decltype(&items[0]) {
  for (auto& item : items)
    if (item.name == n) return &item;
  return nullptr;
}
}  // namespace

const Variable* Network::find_variable(const std::string& n) const { return find_by_name(variables, n); }
Variable* Network::find_variable(const std::string& n) { return find_by_name(variables, n); }

const Network* Model::find_network(const std::string& n) const { return find_by_name(networks, n); }
const Executor* Model::find_executor(const std::string& n) const { return find_by_name(executors, n); }
const Parameter* Model::find_parameter(const std::string& n) const { return find_by_name(parameters, n); }

}  // namespace nn::ir
