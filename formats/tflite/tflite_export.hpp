// NNP (ir::Model) -> TFLite float export: NHWC rewrite, folded batch normalization, fused activations.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "nn/ir/model.hpp"

namespace nn::formats {

struct CalibrationRange {
  float min = 0.0f, max = 0.0f;
};

struct TfliteExportOptions {
  int64_t batch_size = 1;      // < 1: the network's batch size
  bool dynamic_batch = false;  // batch 1 in `shape`, -1 in `shape_signature` (batch_size is then ignored)
  // The NNP's rank-4 inputs and outputs are NHWC already (its convolutions and poolings have
  // channel_last=true): they keep their order. Otherwise they are (N, C, H, W) and become NHWC.
  bool channel_last = false;
  std::string executor;  // "" = the model's only executor
  // Full-integer int8 when not empty: the calibrated range of each variable of the network (by name).
  std::map<std::string, CalibrationRange> int8_ranges;
  bool float_io = false;  // int8: keep float inputs/outputs with QUANTIZE/DEQUANTIZE at the edges
};

// The .tflite bytes of the executor's network. Functions that cannot be exported are all reported at once
// (kUnsupported) with their names and types.
std::string build_tflite_model(const ir::Model& model, const TfliteExportOptions& options);
void save_tflite(const ir::Model& model, const std::string& path, const TfliteExportOptions& options);

// nnabla function types the exporter has a rule for (function_info -f TFLITE).
std::vector<std::string> tflite_exportable_functions();

}  // namespace nn::formats
