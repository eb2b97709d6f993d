// Expands repeat/recurrent loops and builds each network, so the fuzzers reach the engine's shape checks; then
// the same after the inference passes (infer, forward and profile run them on the files they are given).
#include "fuzz_build.hpp"

#include "formats/passes/expand_repeat.hpp"
#include "formats/passes/inference_passes.hpp"
#include "nn/core/error.hpp"
#include "nn/ir/graph_builder.hpp"

namespace nn::fuzz {
namespace {
void build_networks(const ir::Model& model) {
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
}  // namespace

void build_all(const ir::Model& model) {
  build_networks(model);
  ir::Model optimized;
  try {  // as the model session imports a file for infer, forward and profile
    optimized = formats::expand_model(model, formats::OptimizerLists::kExpanded);
    formats::optimize_for_inference(optimized);
  } catch (const nn::Error&) {
    return;
  }
  build_networks(optimized);
}
}  // namespace nn::fuzz
