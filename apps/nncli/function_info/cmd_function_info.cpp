// `nncli function_info`: the functions nncli, the NNB runtime or the ONNX exporter support, what models
// use and lack (docs/command_line.md#function_info), plus -q details, --format json and exit status 3 for
// unsupported functions.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "command.hpp"
#include "common/command_options.hpp"
#include "common/input_file_check.hpp"
#include "formats/common/atomic_file.hpp"
#include "function_info/function_info_output.hpp"
#include "function_info/function_info_sets.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/core/printable.hpp"

namespace nncli {

struct FunctionInfoOptions {
  std::string output;
  std::string all_support;
  std::vector<std::string> files;
  std::string config;
  std::vector<std::string> exclude;
  bool target = false;
  std::string query;
  bool no_expand = false;
  int api = 0;
  std::string format = "text";
};

std::shared_ptr<FunctionInfoOptions> setup_function_info(CLI::App& command) {
  auto o = std::make_shared<FunctionInfoOptions>();
  command.add_option("-o,--output", o->output, "Output file: .yaml writes the function database, else a list");
  command.add_option("-f,--all_support", o->all_support, "Function set: NNB (nnabla-c-runtime), ONNX or TFLITE");
  command.add_option("files", o->files, "Models (.nnp, .nntxt): list the functions they use")
      ->check(existing_input());
  command.add_option("-c,--config", o->config, "Function-list file limiting the set (ONNX: also opset_N)");
  command.add_option("-x,--exclude", o->exclude, "Remove this function from the list (repeatable; nnabla set)")
      ->allow_extra_args(false);
  command.add_flag("-t,--target", o->target, "ONNX: print the target ONNX operators instead");
  command.add_option("-q,--query", o->query, "Print the details of one function (arguments, I/O, targets)");
  add_no_expand_flag(command, o->no_expand);
  command.add_option("--api", o->api, "NNB API level: -1 prints the newest; N lists the functions of level N")
      ->capture_default_str();
  add_text_json_format_option(command, o->format, "text or json");
  return o;
}

namespace {

using namespace function_info;

// Header lines printed before the supported / unsupported lists (upstream's words for NNB and ONNX).
struct Words {
  const char* supported;
  const char* unsupported;
};
Words words_for(const std::string& target) {
  if (target == "NNB")
    return {"nnabla-c-runtime currently support the following functions in model:",
            "nnabla-c-runtime currently does not support the following functions in model:"};
  if (target == "ONNX")
    return {"nnabla support the following onnx functions in model:",
            "nnabla does not support the following onnx functions in model:"};
  if (target == "TFLITE")
    return {"nnabla support the following tflite functions in model:",
            "nnabla does not support the following tflite functions in model:"};
  return {nullptr, "nncli does not support the following functions in model:"};
}

int print_api_level(int api) {
  const int newest = newest_api_level();
  const int level = (api == -1 || api > newest) ? newest : api;
  std::printf("API_LEVEL: %d\n", level);
  if (api == -1) return 0;
  NN_CHECK_CODE(level >= 1, nn::ErrorCode::kUsage) << "--api " << api << ": API levels start at 1";
  for (const auto& name : api_level_functions(level)) std::printf("%s\n", name.c_str());
  return 0;
}

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

void print_list_to_stderr(const char* header, const std::set<std::string>& names) {
  std::fprintf(stderr, "%s\n%s\n", header, nn::printable(plain_list(names), true).c_str());
}

}  // namespace

int run_function_info(const FunctionInfoOptions& opt) {
  if (opt.api != 0) return print_api_level(opt.api);
  std::string target = opt.all_support;
  std::transform(target.begin(), target.end(), target.begin(),
                 [](unsigned char c) { return char(std::toupper(c)); });
  NN_CHECK_CODE(target != "TF_PB" && target != "PB", nn::ErrorCode::kUnsupported)
      << "TensorFlow frozen graphs and SavedModels (.pb) are not supported (TFLite is: -f TFLITE)";
  NN_CHECK_CODE(target.empty() || target == "NNB" || target == "ONNX" || target == "TFLITE", nn::ErrorCode::kUsage)
      << "Unsupport args: " << opt.all_support << " (-f takes NNB, ONNX or TFLITE)";
  NN_CHECK_CODE(opt.exclude.empty() || target.empty(), nn::ErrorCode::kUsage)
      << "-x/--exclude applies to the nnabla function set only (without -f)";
  NN_CHECK_CODE(!opt.target || target == "ONNX", nn::ErrorCode::kUsage) << "-t/--target needs -f ONNX";

  const std::optional<int> opset = target == "ONNX" ? parse_opset(opt.config) : std::nullopt;
  const TargetTable table = target == "NNB"      ? nnb_table(kNewestNnbLevel)
                            : target == "ONNX"   ? onnx_table(opset.value_or(kDefaultOnnxOpset))
                            : target == "TFLITE" ? tflite_table()
                                                 : nnabla_table();
  if (!opt.query.empty()) {
    std::vector<TargetTable> targets{nnabla_table(), nnb_table(kNewestNnbLevel), onnx_table(kDefaultOnnxOpset)};
    const std::string text =
        opt.format == "json" ? query_json(opt.query, targets) : query_text(opt.query, targets);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  NN_CHECK_CODE(table.available, nn::ErrorCode::kUnsupported) << table.reason;
  NN_CHECK_CODE(!opt.target, nn::ErrorCode::kUnsupported)
      << "-t/--target: the ONNX exporter of this nncli does not expose its operator table";

  std::set<std::string> supported = table.functions, unsupported;
  std::map<std::string, std::vector<std::string>> func_types;
  if (!opt.files.empty()) {
    ImportOptions import;
    import.expand = !opt.no_expand;
    const std::set<std::string> used = model_functions(opt.files, import);
    std::erase_if(supported, [&](const std::string& f) { return !used.count(f); });
    for (const auto& f : used)
      if (!supported.count(f)) unsupported.insert(f);
  }
  const bool list_config = !opt.config.empty() && !opset;
  if (list_config) {
    NN_CHECK(std::filesystem::exists(opt.config)) << "'" << opt.config << "': config file not found";
    const FunctionList list = read_function_list(opt.config);
    if (!list.onnx_targets.empty()) {
      NN_LOG_WARNING << "'" << opt.config << "': " << list.onnx_targets.size()
                     << " ONNX operator entries (Op@opset) ignored: only function names select functions";
    }
    const std::set<std::string> config_set = list.names();
    std::erase_if(supported, [&](const std::string& f) { return !config_set.count(f); });
    if (opt.files.empty())
      for (const auto& f : config_set)
        if (!supported.count(f)) unsupported.insert(f);
    for (const auto& f : supported) func_types[f] = list.types.at(f);
  } else {
    for (const auto& f : supported) func_types[f] = {"ALL"};
  }
  for (const auto& f : opt.exclude) {
    supported.erase(f);
    func_types.erase(f);
  }

  const Words words = words_for(target);
  if (opt.format == "json") {
    const std::string text = result_json({table.target, opt.files, supported, unsupported});
    if (opt.output.empty())
      std::fwrite(text.data(), 1, text.size(), stdout);
    else
      nn::formats::write_file_atomic(opt.output, text);
  } else if (!opt.output.empty() && lower_extension(opt.output) == ".yaml") {
    NN_CHECK_CODE(target != "ONNX", nn::ErrorCode::kUnsupported)
        << "ONNX YAML output (function -> Op@opset) needs the exporter's operator table, not built in this "
           "nncli";
    nn::formats::write_file_atomic(opt.output, yaml_database(func_types, nnb_table(kNewestNnbLevel)));
  } else if (!opt.output.empty()) {
    nn::formats::write_file_atomic(opt.output, plain_list(supported));
  } else {
    if (words.supported) std::printf("%s\n", words.supported);
    std::printf("%s\n", plain_list(supported).c_str());
  }
  std::fflush(stdout);
  if (unsupported.empty()) return 0;
  print_list_to_stderr(words.unsupported, unsupported);
  return int(nn::ErrorCode::kUnsupported);
}

}  // namespace nncli
