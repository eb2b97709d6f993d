// ONNX -> ir::Model import (network named after the graph, executor exec_0), as nnabla's converter does.
#pragma once
#include <string>

#include "nn/ir/model.hpp"
#include "onnx/onnx_pb.h"

namespace nn::formats::onnx {

// Reads `path` (external data relative to its folder). Throws nn::Error: kInvalid for unreadable or
// malformed files, kUnsupported for unsupported opsets or operators (all of them listed in one line).
ir::Model import_model(const std::string& path);
ir::Model import_model_proto(const ::onnx::ModelProto& model, const std::string& base_dir);

// Operators of the model that the import table lacks, as "Op (domain 'd', opset N)", deduplicated.
std::vector<std::string> unsupported_operators(const ::onnx::ModelProto& model);

}  // namespace nn::formats::onnx
