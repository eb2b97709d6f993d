// convert's TFLite exporter: the executor's network as a float .tflite in NHWC (batch from -b).
#include "convert_targets.hpp"
#include "formats/tflite/tflite_export.hpp"
#include "nn/core/error.hpp"

namespace nncli {

void export_tflite(const nn::ir::Model& model, const std::string& output, const ConvertOptions& options) {
  NN_CHECK_CODE(options.config.empty(), nn::ErrorCode::kUnsupported)
      << "-c (function-list split) is not implemented for TFLite export";
  nn::formats::TfliteExportOptions o;
  o.batch_size = options.batch_size;
  nn::formats::save_tflite(model, output, o);
}

}  // namespace nncli
