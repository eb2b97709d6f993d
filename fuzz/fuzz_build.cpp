// Expands repeat/recurrent loops and builds each network, so the fuzzers reach the engine's shape checks.
#include "fuzz_build.hpp"

#include "formats/passes/expand_repeat.hpp"
#include "nn/core/error.hpp"
#include "nn/ir/graph_builder.hpp"

namespace nn::fuzz {
void build_all(const ir::Model& model) {
  ir::ParameterStore params;
  try {
    params.load(model.parameters);
  } catch (const nn::Error&) {
    return;
  }
  for (const auto& net : model.networks) {
    try {
      ir::Network expanded = formats::expand_network(net);
      ir::BuildOptions opt;
      opt.batch_size = 1;
      auto built = ir::build_network(expanded, params, opt);
      (void)built;
    } catch (const nn::Error&) {
    }
  }
}
}  // namespace nn::fuzz
