// The graph inputs of an ONNX file (names and dims), read without parsing its weights.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "nn/core/shape.hpp"

namespace nn::formats::onnx {

struct GraphInput {
  std::string name;
  Shape dims;  // -1 where the file gives no fixed value (dim_param or unknown)
  std::vector<std::string> dim_names;  // each dim's dim_param ("" where it has none)
};

// The graph's inputs that are not initializers, in file order, from a walk of the serialized ModelProto that
// skips every field but graph.input and the initializers' names (a 100 MB model's weights are never copied).
// nullopt when the file cannot be read or walked: the import that follows reports why.
std::optional<std::vector<GraphInput>> read_graph_inputs(const std::string& path);

// Whether any input has a dim without a fixed value.
bool has_free_dims(const std::vector<GraphInput>& inputs);

}  // namespace nn::formats::onnx
