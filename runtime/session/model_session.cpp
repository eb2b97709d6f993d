// Model loading shared by subcommands.
#include "model_session.hpp"

#include <filesystem>
#include <set>

#include "formats/common/file_format.hpp"
#include "formats/nnp/nnp_reader.hpp"
#include "formats/onnx/import/onnx_importer.hpp"
#include "formats/passes/expand_repeat.hpp"
#include "formats/passes/export_target.hpp"
#include "formats/passes/inference_passes.hpp"
#include "formats/tflite/tflite_import.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {

namespace fmt = nn::formats;

namespace {

std::string single_quoted(const std::string& s) { return "'" + s + "'"; }

// nnabla_cli's rule: with exactly one input file its extension decides the import format.
std::string effective_import_format(const std::vector<std::string>& files, const std::string& requested) {
  if (files.size() != 1) return requested;
  const std::string ext = fmt::file_extension(files[0]);
  if (ext == "nnp" || ext == "nntxt" || ext == "prototxt") return "NNP";
  if (ext == "onnx") return "ONNX";
  if (ext == "pb") return "TF_PB";
  if (ext == "ckpt") return "TF_CKPT_V1";
  if (ext == "meta") return "TF_CKPT_V2";
  if (ext == "tflite") return "TFLITE";
  return requested;
}

void keep_only_executor(nn::ir::Model& model, int index) {
  NN_CHECK(index >= 0 && size_t(index) < model.executors.size())
      << "executor index " << index << " is out of range (the model has " << model.executors.size()
      << " executors)";
  nn::ir::Executor executor = model.executors[size_t(index)];
  NN_LOG_INFO << " Try to leave only executor[" << executor.name << "].";
  std::vector<nn::ir::Network> networks;
  for (auto& n : model.networks)
    if (n.name == executor.network_name) networks.push_back(std::move(n));
  model.networks = std::move(networks);
  model.executors = {std::move(executor)};
  model.optimizers.clear();
  model.monitors.clear();
}

}  // namespace

bool is_model_file(const std::string& path) {
  if (fmt::file_extension(path) == "onnx" || fmt::file_extension(path) == "tflite") return true;
  switch (fmt::format_from_extension(path)) {
    case fmt::FileFormat::kNnp:
    case fmt::FileFormat::kNntxt:
    case fmt::FileFormat::kProtobuf:
    case fmt::FileFormat::kH5: return true;
    default: break;
  }
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

namespace {
nn::ir::Model import_unoptimized(const std::vector<std::string>& files, const ImportOptions& options) {
  NN_CHECK_CODE(!files.empty(), nn::ErrorCode::kUsage) << "no model file given";
  const std::string format = effective_import_format(files, options.import_format);
  if (format == "ONNX" && files.size() == 1) {  // one network, executor exec_0, already expanded
    NN_LOG_INFO << "Importing " << files[0];
    return nn::formats::onnx::import_model(files[0], options.input_shapes, options.onnx_at_run_time);
  }
  NN_CHECK_CODE(options.input_shapes.empty(), nn::ErrorCode::kUsage)
      << "--input-shape fixes the dynamic axes of ONNX models; " << single_quoted(files.front())
      << " is not one (nnabla and TFLite models take their batch size from -b)";
  if (format == "TFLITE" && files.size() == 1) {  // one network "main", executor exec_0
    NN_LOG_INFO << "Importing " << files[0];
    return nn::formats::import_tflite(files[0]);
  }
  NN_CHECK_CODE(format.rfind("TF_", 0) != 0, nn::ErrorCode::kUnsupported)
      << "TensorFlow models (" << format
      << ") are not supported: nothing here can run them to check the "
         "result (convert them to .tflite with TensorFlow first)";
  NN_CHECK(format == "NNP") << "Import format (" << format << ") is not supported.";
  for (const auto& f : files) NN_LOG_INFO << "Importing " << f;
  nn::ir::Model model = fmt::load_model(files);
  if (options.executor_index >= 0) keep_only_executor(model, options.executor_index);
  if (!options.expand) return model;
  for (const auto& n : model.networks) NN_LOG_VERBOSE << " Expanding " << n.name << ".";
  const auto optimizers = options.training_lists ? fmt::OptimizerLists::kKept : fmt::OptimizerLists::kExpanded;
  return nn::with_context(single_quoted(files.front()),
                          [&] { return fmt::expand_model(std::move(model), optimizers); });
}
}  // namespace

nn::ir::Model import_model(const std::vector<std::string>& files, const ImportOptions& options) {
  nn::ir::Model model = import_unoptimized(files, options);
  if (options.optimize && options.expand) {
    for (const auto& line : fmt::optimize_for_inference(model)) {
      NN_LOG_VERBOSE << " Optimize: " << line;
    }
  }
  return model;
}

const nn::ir::Executor& find_executor(const nn::ir::Model& model, const std::string& name) {
  return fmt::select_executor(model, name, fmt::UnnamedExecutor::kFirst);
}

void load_parameters(nn::ir::ParameterStore& store, const nn::ir::Model& model,
                     std::vector<nn::ir::Parameter>* take) {
  if (take)
    store.take(*take);
  else
    store.load(model.parameters);
}

std::vector<std::string> missing_parameters(const nn::ir::Model& model, const nn::ir::Network& network) {
  std::set<std::string> present;
  for (const auto& p : model.parameters) present.insert(p.name);
  std::set<std::string> used;
  for (const auto& f : network.functions) used.insert(f.inputs.begin(), f.inputs.end());
  std::vector<std::string> missing;
  for (const auto& v : network.variables)
    if (v.type == "Parameter" && used.count(v.name) && !present.count(v.name)) missing.push_back(v.name);
  return missing;
}

}  // namespace nncli
