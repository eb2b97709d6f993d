// ONNX -> ir::Model import (network named after the graph, executor exec_0), as nnabla's converter does.
#pragma once
#include <map>
#include <set>
#include <string>

#include "nn/ir/model.hpp"
#include "onnx/onnx_pb.h"

namespace nn::formats::onnx {

// Fixed shapes for named graph inputs (--input-shape): their free dims take these values.
using InputShapes = std::map<std::string, Shape>;

// Reads `path` (external data relative to its folder). Throws nn::Error: kInvalid for unreadable or
// malformed files, kUnsupported for unsupported opsets or operators (all of them listed in one line).
// Inputs named in `shapes` are imported at those shapes (kUsage for an unknown name, another number of dims or
// a dim the file fixes otherwise), and the graph is traced once at them; free dims left are traced at batch 1
// and 2 and merged (symbolic_batch.hpp).
// `at_run_time`: constants the import would fold (helper names, as a ShapeTemplate finds them) that are computed
// by their function in the network instead, so that their sizes may follow the inputs.
ir::Model import_model(const std::string& path, const InputShapes& shapes = {},
                       const std::set<std::string>& at_run_time = {});
ir::Model import_model_proto(const ::onnx::ModelProto& model, const std::string& base_dir,
                             const InputShapes& shapes = {});

// Operators of the model that the import table lacks, as "Op (domain 'd', opset N)", deduplicated.
std::vector<std::string> unsupported_operators(const ::onnx::ModelProto& model);

}  // namespace nn::formats::onnx
