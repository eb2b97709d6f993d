// Options shared by convert's exporters and the declarations of the exporters in convert_targets.def.
#pragma once
#include <string>
#include <vector>

#include "common/command_options.hpp"
#include "nn/ir/model.hpp"

namespace nncli {

struct ConvertOptions {
  std::vector<std::string> inputs;
  std::string output;
  ModelImportArgs import;  // -I, -E, --nnp-exclude-preprocess, --nnp-no-expand-network
  std::string export_format = "NNP";
  bool force = false;
  int64_t batch_size = 1;      // NNB/CSRC/ONNX; < 0: the network's batch size
  std::string split;           // -S "a-b,c-"
  std::string define_version;  // -d opset_N / opset_snpe / opset_tensorrt / nnb_N
  int ir_version = -1;         // ONNX IR version (<= 0: library default)
  bool dynamic_batch = false;  // ONNX/TFLite: dynamic batch dim (--dynamic-batch)
  std::string config;          // -c function-list file
  bool nnp_parameter_h5 = false;
  bool nnp_parameter_nntxt = false;
  bool nnp_exclude_parameter = false;
  std::string default_variable_type = "FLOAT32";  // -T (NNB/CSRC)
  std::string settings;                           // -s NNB settings YAML
  int api_level = -1;                             // --api (NNB)
  bool verify = false;                            // --verify: run source and result on the same inputs
  std::vector<std::string> verify_inputs;
  bool quantization = false;     // TFLite: full-integer int8 (--quantization)
  std::string dataset;           // TFLite int8: representative data (.npy, first axis = samples)
  bool tflite_float_io = false;  // TFLite int8: float inputs/outputs with QUANTIZE/DEQUANTIZE
  bool channel_last = false;     // TFLite: the NNP's rank-4 inputs/outputs are NHWC already (--channel-last)
  int64_t ram_budget = 0;        // NNB: fail (exit 4) when weights + activations exceed it; 0 = no limit
};

// Each exporter writes `output` (atomically) from the imported, expanded model.
#define NNCLI_EXPORT(format, function) \
  void function(const nn::ir::Model& model, const std::string& output, const ConvertOptions& options);
#include "convert/convert_targets.def"
#undef NNCLI_EXPORT

// Upper-case export format for an output path by its extension ("" when it has none).
std::string export_format_of(const std::string& output);

}  // namespace nncli
