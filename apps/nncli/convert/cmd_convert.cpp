// `nncli convert`: nnabla_cli's converter between NNP and the export formats listed in convert_targets.def.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>

#include "command.hpp"
#include "common/command_options.hpp"
#include "convert/convert_targets.hpp"
#include "convert/convert_split.hpp"
#include "convert/convert_verify.hpp"
#include "model_session.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {

struct ConvertCommandOptions : ConvertOptions {
  std::vector<std::string> files;
  VerifySettings verify_settings;
};

std::shared_ptr<ConvertCommandOptions> setup_convert(CLI::App& command) {
  auto o = std::make_shared<ConvertCommandOptions>();
  add_model_import_options(command, o->import, "Input format: NNP or ONNX");
  add_input_shape_option(command, o->import.input_shapes);
  command.add_option("-O,--export-format", o->export_format, "Output format (the output's extension wins)")
      ->capture_default_str();
  command.add_flag("-f,--force", o->force, "Overwrite an existing output");
  add_batch_size_option(command, o->batch_size, "Batch size for NNB/CSRC/ONNX/TFLite (<0: the network's)")
      ->capture_default_str();
  command.add_option("-S,--split", o->split, "Function index ranges \"a-b,c-\" (needs -E)");
  command.add_option("-d,--define_version", o->define_version, "opset_N, opset_snpe, opset_tensorrt or nnb_N");
  command.add_option("--ir_version", o->ir_version, "ONNX IR version (<=0: default)");
  command.add_flag("--dynamic-batch,--onnx-dynamic-batch", o->dynamic_batch,
                   "ONNX/TFLite: keep the batch dimension dynamic (exported at 1)");
  command.add_option("-c,--config", o->config, "Function-list file: split where functions are missing");
  command.add_flag("--nnp-parameter-h5", o->nnp_parameter_h5, "NNP: parameters as parameter.h5");
  command.add_flag("--nnp-parameter-nntxt", o->nnp_parameter_nntxt, "NNP: parameters inside the nntxt");
  command.add_flag("--nnp-exclude-parameter", o->nnp_exclude_parameter, "NNP: leave the parameters out");
  add_default_variable_type_option(command, o->default_variable_type, "NNB/CSRC variable type");
  command.add_option("-s,--settings", o->settings, "NNB settings YAML");
  add_nnb_api_option(command, o->api_level);
  command.add_option("--ram-budget", o->ram_budget, "NNB: fail when weights + activations exceed BYTES");
  command.add_flag("--quantization", o->quantization, "TFLite: full-integer int8 calibrated on --dataset");
  command.add_option("--dataset", o->dataset, "TFLite int8: representative data (.npy, first axis = samples)");
  command.add_flag("--tflite-float-io", o->tflite_float_io, "TFLite int8: keep float inputs and outputs");
  command.add_flag(
      "--channel-last", o->channel_last,
      "TFLite: the NNP works on NHWC data (channel_last=true): rank-4 inputs/outputs keep their order");
  add_verify_options(command, *o, o->verify_settings);
  command.add_option("files", o->files, "INPUT [INPUT...] OUTPUT")->expected(-1);
  return o;
}

std::string export_format_of(const std::string& output) {
  std::string ext = std::filesystem::path(output).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
  if (ext == ".nnp" || ext == ".nntxt") return "NNP";
  if (ext == ".nnb") return "NNB";
  if (ext == ".onnx") return "ONNX";
  if (ext == ".pb") return "TF_PB";
  if (ext == ".tflite") return "TFLITE";
  return "";
}

namespace {
using Exporter = void (*)(const nn::ir::Model&, const std::string&, const ConvertOptions&);

Exporter find_exporter(const std::string& format) {
#define NNCLI_EXPORT(name, function) \
  if (format == #name) return &function;
#include "convert/convert_targets.def"
#undef NNCLI_EXPORT
  return nullptr;
}
}  // namespace

int run_convert(const ConvertCommandOptions& given) {
  ConvertCommandOptions o = given;
  split_verify_arguments(o.files, o.verify_inputs);
  NN_CHECK_CODE(o.files.size() >= 2, nn::ErrorCode::kUsage) << "Input and Output arg is mandatory.";
  o.output = o.files.back();
  o.inputs.assign(o.files.begin(), o.files.end() - 1);
  std::string by_ext = export_format_of(o.output);
  if (!by_ext.empty()) o.export_format = by_ext;
  std::transform(o.export_format.begin(), o.export_format.end(), o.export_format.begin(), ::toupper);
  NN_CHECK_CODE(o.export_format != "TF_PB", nn::ErrorCode::kUnsupported)
      << "TensorFlow frozen graphs (.pb) are not supported: nothing here can run them to check the result "
         "(write .tflite instead)";
  Exporter exporter = find_exporter(o.export_format);
  NN_CHECK_CODE(exporter != nullptr, nn::ErrorCode::kUnsupported)
      << "Export format (" << o.export_format << ") is not supported.";
  NN_CHECK_CODE(o.split.empty() || o.import.executor_index >= 0, nn::ErrorCode::kUsage) << "\"-S\" needs \"-E\".";
  NN_CHECK(o.force || o.export_format == "CSRC" || !std::filesystem::exists(o.output))
      << "'" << o.output << "' already exists (use -f to overwrite it)";

  nn::ir::Model model = import_model(o.inputs, o.import.import_options());
  const bool split = convert_in_pieces(model, o, exporter);  // -S / -c: one output per piece
  if (!split) exporter(model, o.output, o);
  if (o.verify && !split) verify_conversion(model, o, o.verify_settings);
  NN_LOG_INFO << "Converted " << o.inputs.front() << (o.inputs.size() > 1 ? " (and more)" : "") << " to "
              << o.output << " (" << o.export_format << ")";
  return 0;
}

}  // namespace nncli
