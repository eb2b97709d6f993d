// A model from ../shared/testdata with every parameter created from its initializer (files that hold none).
#pragma once
#include <string>

#include "formats/nnp/nnp_reader.hpp"
#include "nn/ir/graph_builder.hpp"

namespace nn::test {

// `path`'s model, its first executor's network built once at batch 1 so that its parameters exist.
inline ir::Model load_with_initialized_parameters(const std::string& path) {
  ir::Model model = formats::load_model({path});
  ir::ParameterStore params;
  ir::BuildOptions options;
  options.batch_size = 1;
  ir::build_network(*model.find_network(model.executors.at(0).network_name), params, options);
  model.parameters = params.to_ir();
  return model;
}

}  // namespace nn::test
