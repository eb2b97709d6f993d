// convert's ONNX exporter: the executor's network as an ONNX model (opset/dialect from -d, batch from -b).
#include "convert/convert_targets.hpp"
#include "formats/onnx/export/onnx_export.hpp"
#include "nn/core/error.hpp"

namespace nncli {

void export_onnx(const nn::ir::Model& model, const std::string& output, const ConvertOptions& options) {
  NN_CHECK_CODE(options.config.empty(), nn::ErrorCode::kUnsupported)
      << "-c (function-list split) is not implemented for ONNX export yet";
  nn::formats::OnnxExportOptions o;
  o.define_version = options.define_version;
  o.batch_size = options.batch_size;
  o.ir_version = options.ir_version;
  o.dynamic_batch = options.dynamic_batch;
  nn::formats::save_onnx(model, output, o);
}

}  // namespace nncli
