// Options several subcommands share (command_options.hpp).
#include "common/command_options.hpp"

#include <CLI/CLI.hpp>

#include "common/input_file_check.hpp"
#include "nn/core/error.hpp"

namespace nncli {

const char* const kModelContextHelp =
    "Context: cpu, cuda or cudnn[:half][:DEVICE_ID] (default: the model's default_context, else cpu)";

CLI::Option* add_model_config_option(CLI::App& command, std::string& config, const std::string& help) {
  return command.add_option("-c,--config", config, help)->check(existing_input());
}

CLI::Option* add_param_option(CLI::App& command, std::string& param, const std::string& help) {
  return command.add_option("-p,--param", param, help)->check(existing_input());
}

CLI::Option* add_param_option(CLI::App& command, std::vector<std::string>& params, const std::string& help) {
  return command.add_option("-p,--param", params, help)->check(existing_input());
}

CLI::Option* add_context_option(CLI::App& command, std::string& context, const std::string& help) {
  return command.add_option("-C,--context", context, help);
}

CLI::Option* add_context_option(CLI::App& command, std::vector<std::string>& context, const std::string& help) {
  return command.add_option("-C,--context", context, help);
}

CLI::Option* add_outdir_option(CLI::App& command, std::string& outdir, const std::string& help) {
  return command.add_option("-o,--outdir", outdir, help)->required();
}

CLI::Option* add_batch_size_option(CLI::App& command, int64_t& batch_size, const std::string& help) {
  return command.add_option("-b,--batch-size", batch_size, help);
}

CLI::Option* add_run_batch_size_option(CLI::App& command, int64_t& batch_size) {
  return command.add_option("-b,--batch_size,--batch-size", batch_size, "Batch size (< 1: the network's)")
      ->capture_default_str();
}

CLI::Option* add_seed_option(CLI::App& command, uint32_t& seed, const std::string& help) {
  return command.add_option("-s,--seed", seed, help)->capture_default_str();
}

CLI::Option* add_no_optimize_flag(CLI::App& command, bool& no_optimize) {
  return command.add_flag("--no-optimize", no_optimize,
                          "Run the network as given: no BatchNormalization folding or Identity removal");
}

CLI::Option* add_text_json_format_option(CLI::App& command, std::string& format, const std::string& help) {
  return command.add_option("--format", format, help)->check(CLI::IsMember({"text", "json"}));
}

CLI::Option* add_no_expand_flag(CLI::App& command, bool& no_expand, const std::string& help) {
  return command.add_flag("--nnp-no-expand-network", no_expand, help);
}

ImportOptions ModelImportArgs::import_options() const {
  ImportOptions import;
  import.import_format = import_format;
  import.expand = !no_expand;
  import.executor_index = executor_index;
  import.input_shapes = input_shape_map(input_shapes);
  return import;
}

void add_model_import_options(CLI::App& command, ModelImportArgs& args, const std::string& format_help,
                              const std::string& executor_help) {
  command.add_option("-I,--import-format", args.import_format, format_help)->capture_default_str();
  command.add_option("-E,--nnp-import-executor-index", args.executor_index, executor_help);
  command.add_flag("--nnp-exclude-preprocess", args.exclude_preprocess, "Accepted for compatibility (no effect)");
  add_no_expand_flag(command, args.no_expand);
}

const char* const kInputShapeHelp =
    "NAME=d0,d1,...: the shape of input NAME (fixes an ONNX model's dynamic axes; repeat for each input)";

CLI::Option* add_input_shape_option(CLI::App& command, std::vector<std::string>& specs, const std::string& help) {
  return command.add_option("--input-shape", specs, help)->allow_extra_args(false);
}

std::pair<std::string, nn::Shape> parse_input_shape(const std::string& spec) {
  const size_t eq = spec.rfind('=');
  nn::Shape dims;
  bool ok = eq != std::string::npos && eq > 0 && eq + 1 < spec.size();
  for (size_t at = eq + 1; ok && at <= spec.size();) {
    const size_t comma = std::min(spec.find(',', at), spec.size());
    const std::string dim = spec.substr(at, comma - at);
    ok = !dim.empty() && dim.size() < 12 && dim.find_first_not_of("0123456789") == std::string::npos &&
         std::stoll(dim) > 0;
    if (ok) dims.push_back(std::stoll(dim));
    at = comma + 1;
  }
  NN_CHECK_CODE(ok, nn::ErrorCode::kUsage)
      << "--input-shape '" << spec << "': expected NAME=d0,d1,... with every dim a positive integer";
  return {spec.substr(0, eq), dims};
}

std::map<std::string, nn::Shape> input_shape_map(const std::vector<std::string>& specs) {
  std::map<std::string, nn::Shape> shapes;
  for (const auto& spec : specs) {
    auto [name, dims] = parse_input_shape(spec);
    NN_CHECK_CODE(shapes.emplace(name, dims).second, nn::ErrorCode::kUsage)
        << "--input-shape: input '" << name << "' is given twice";
  }
  return shapes;
}

std::vector<std::map<std::string, nn::Shape>> input_shape_sets(const std::vector<std::string>& specs) {
  std::map<std::string, std::vector<nn::Shape>> given;
  for (const auto& spec : specs) {
    auto [name, dims] = parse_input_shape(spec);
    given[name].push_back(std::move(dims));
  }
  size_t sets = 1;
  std::string several;
  for (const auto& [name, shapes] : given) {
    if (shapes.size() == 1) continue;
    NN_CHECK_CODE(sets == 1 || shapes.size() == sets, nn::ErrorCode::kUsage)
        << "--input-shape: input '" << several << "' is given " << sets << " shapes and '" << name << "' "
        << shapes.size() << " (inputs given several shapes need as many each)";
    sets = shapes.size();
    several = name;
  }
  std::vector<std::map<std::string, nn::Shape>> result(sets);
  for (size_t k = 0; k < sets; ++k)
    for (const auto& [name, shapes] : given) result[k][name] = shapes[shapes.size() == 1 ? 0 : k];
  return result;
}

std::string input_shapes_label(const std::map<std::string, nn::Shape>& shapes) {
  std::string label;
  for (const auto& [name, dims] : shapes) {
    label += (label.empty() ? "" : " ") + name + "=";
    for (size_t d = 0; d < dims.size(); ++d) label += (d ? "x" : "") + std::to_string(dims[d]);
  }
  return label;
}

CLI::Option* add_nnb_api_option(CLI::App& command, int& api_level) {
  return command.add_option("--api", api_level, "NNB API level (-1: newest)")->capture_default_str();
}

CLI::Option* add_default_variable_type_option(CLI::App& command, std::string& type, const std::string& help) {
  return command.add_option("-T,--default-variable-type", type, help)->capture_default_str();
}

}  // namespace nncli
