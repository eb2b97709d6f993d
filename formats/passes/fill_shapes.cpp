// Shape pass: fills variable shapes missing from the file by building the network on libnn.
#include "formats/passes/fill_shapes.hpp"

#include "nn/core/log.hpp"
#include "nn/ir/graph_builder.hpp"

namespace nn::formats {

void fill_missing_shapes(const ir::Model& model, ir::Network& network) {
  bool missing = false;
  for (const ir::Variable& v : network.variables)
    if (v.shape.empty() && model.find_parameter(v.name) == nullptr) missing = true;
  if (!missing) return;
  try {
    ir::ParameterStore params;
    params.load(model.parameters);
    ir::BuiltNetwork built = ir::build_network(network, params, ir::BuildOptions{});
    for (ir::Variable& v : network.variables) {
      if (!v.shape.empty()) continue;
      auto it = built.variables.find(v.name);
      if (it != built.variables.end()) v.shape = it->second->shape();
    }
  } catch (const std::exception& e) {
    NN_LOG_DEBUG << "network '" << network.name << "': cannot compute the missing variable shapes: " << e.what();
  }
}

}  // namespace nn::formats
