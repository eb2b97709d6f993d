// NNP (ir::Model) -> ONNX export: opset/dialect selection, graph building and the checked, atomic write.
#pragma once
#include <cstdint>
#include <string>

#include "nn/ir/model.hpp"

namespace onnx {
class ModelProto;
}

namespace nn::formats {

struct OnnxExportOptions {
  std::string define_version;  // -d: "" (opset 11), opset_N (6..17), opset_snpe, opset_tensorrt
  int64_t batch_size = 1;      // < 1: the network's batch size
  int ir_version = -1;         // <= 0: 8 (onnx 1.12, as upstream's converter writes)
  std::string executor;        // "" = the model's only executor
  bool dynamic_batch = false;  // symbolic "batch" first dim on inputs/outputs whose batch is -1 (exported at 1)
};

struct OnnxOpset {
  int table = 11;    // function table: 6, 7, 9, 10, 11 or 13
  int version = 11;  // opset_import version written
  int dialect = 0;   // 0 plain, 1 SNPE, 2 TensorRT
};
// Parses -d; throws kUsage for unknown dialects and opsets outside 6..17.
OnnxOpset parse_onnx_opset(const std::string& define_version);

// Builds the model proto of the executor's network. Functions that cannot be exported are all reported at
// once (kUnsupported) with their names and types.
void build_onnx_model(const ir::Model& model, const OnnxExportOptions& options, onnx::ModelProto* out);

// onnx::checker::check_model plus strict shape inference; throws nn::Error naming `what`.
void check_onnx_model(onnx::ModelProto& proto, const std::string& what);

// build + check + atomic write.
void save_onnx(const ir::Model& model, const std::string& path, const OnnxExportOptions& options);

}  // namespace nn::formats
