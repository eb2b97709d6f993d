// An ONNX sub-graph (Loop's body, If's branches) imported as a network of its own that a function runs.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "formats/onnx/import/import_context.hpp"

namespace nn::formats::onnx {

// An input the function gives the sub-graph itself (Loop's iteration number, condition and carried values).
struct SubGraphInput {
  std::string name;
  Shape shape;
  int32_t data_type;
};

struct ImportedSubGraph {
  std::shared_ptr<ir::SubNetwork> net;
  // The outer tensors the function passes after `own` inputs, in the sub-network's input order: the outer
  // values the graph reads, then its constants (held by the outer graph, as the sub-network has no parameters).
  std::vector<std::string> outer_inputs;
  std::vector<int32_t> output_types;      // ONNX element types of the graph's outputs
  std::vector<Shape> output_shapes;       // their import-time shapes
  std::vector<int64_t> output_data_axes;  // their data-sized axes (-1: none)
};

// Imports `graph` (its nodes read `own` inputs, its initializers and the outer tensors of `ctx` by name).
// Sequence and optional values are refused (kUnsupported).
ImportedSubGraph import_subgraph(ImportContext& ctx, const ::onnx::GraphProto& graph,
                                 const std::vector<SubGraphInput>& own);

// The graph attribute `name` of `node`.
const ::onnx::GraphProto& graph_attribute(const NodeView& node, const std::string& name);

}  // namespace nn::formats::onnx
