// Function sets for `nncli function_info`: what libnn, the NNB writer and the ONNX exporter support, what a
// model uses, and function-list files (-c).
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model_session.hpp"

namespace nncli::function_info {

// The NNB table of `function_info -f NNB`: the newest API level (formats/nnb/nnb_function_ids.def).
constexpr int kNewestNnbLevel = -1;
// Default ONNX opset of the exporter (without -d, as upstream).
constexpr int kDefaultOnnxOpset = 11;

// One target's function table. `available` is false when this nncli was built without that table; `reason`
// then says so in one line (never a made-up list).
struct TargetTable {
  std::string target;  // "nnabla", "NNB" or "ONNX"
  bool available = true;
  std::string reason;
  std::set<std::string> functions;
};

TargetTable nnabla_table();            // every function libnn has a schema for
TargetTable nnb_table(int api_level);  // formats/nnb nnb_supported_functions()
TargetTable onnx_table(int opset);     // formats/onnx onnx_exportable_functions()
TargetTable tflite_table();            // formats/tflite tflite_exportable_functions()

// The newest NNB API level, and the "<Type>_<argcode>" names of a level (formats/nnb function_table).
int newest_api_level();
std::vector<std::string> api_level_functions(int level);

// Every function type the models use (after expansion unless options.expand is false): as upstream, the
// network of each model's first executor.
std::set<std::string> model_functions(const std::vector<std::string>& files, const ImportOptions& options);

// A function-list file (docs/command_line.md#convert-function-list-file): "Type[, TYPE...]" lines, ';'
// comments. For ONNX also "Op@opset".
struct FunctionList {
  std::map<std::string, std::vector<std::string>> types;  // function -> FLOAT32/FIXED16/... (may be empty)
  std::vector<std::string> onnx_targets;                  // "Op@opset" entries
  std::set<std::string> names() const;
};
FunctionList read_function_list(const std::string& path);
// "opset_13" -> 13; nullopt when the text is not of that form.
std::optional<int> parse_opset(const std::string& text);

// nnabla's uniq name of a function at the newest API level: "<Type>_<argcode>"
// (docs/nnb_format.md#function-records-and-arguments), e.g. "Convolution_iiIiIiIiB"; "<Type>_Empty"
// without arguments.
std::string uniq_name(const std::string& type);

}  // namespace nncli::function_info
