// Function sets for `nncli function_info`: libnn's registry, the NNB/ONNX writers' support queries (when
// built), model functions and function-list files.
#include "function_info/function_info_sets.hpp"
#include "formats/nnb/nnb_args.hpp"
#include "formats/nnb/nnb_function_table.hpp"
#include "formats/tflite/tflite_export.hpp"

#include <fstream>
#include <regex>

#include "nn/core/error.hpp"
#include "nn/ops/op_registry.hpp"

// The NNB and ONNX writers declare their support queries in these headers; until they exist this nncli
// says that the table is not built instead of printing a list of its own.
#if __has_include("formats/nnb/nnb_support.hpp")
#include "formats/nnb/nnb_support.hpp"
#define NNCLI_HAS_NNB_SUPPORT 1
#endif
#if __has_include("formats/onnx/export/onnx_export_support.hpp")
#include "formats/onnx/export/onnx_export_support.hpp"
#define NNCLI_HAS_ONNX_SUPPORT 1
#endif

// The queries may live in any of these namespaces; empty declarations make the using-directives valid.
namespace nn::formats::nnb {}
namespace nn::formats::onnx {}

namespace nncli::function_info {

TargetTable nnabla_table() {
  TargetTable t;
  t.target = "nnabla";
  for (const auto& name : nn::OpRegistry::instance().names()) t.functions.insert(name);
  return t;
}

TargetTable nnb_table([[maybe_unused]] int api_level) {
  TargetTable t;
  t.target = "NNB";
#ifdef NNCLI_HAS_NNB_SUPPORT
  using namespace nn::formats;
  using namespace nn::formats::nnb;
  for (const auto& name : nnb_supported_functions(api_level)) t.functions.insert(name);
#else
  t.available = false;
  t.reason = "NNB support table not built in this nncli (formats/nnb/nnb_support.hpp is missing)";
#endif
  return t;
}

TargetTable onnx_table([[maybe_unused]] int opset) {
  TargetTable t;
  t.target = "ONNX";
#ifdef NNCLI_HAS_ONNX_SUPPORT
  using namespace nn::formats;
  using namespace nn::formats::onnx;
  for (const auto& name : onnx_exportable_functions(opset)) t.functions.insert(name);
#else
  t.available = false;
  t.reason = "ONNX export table not built in this nncli (formats/onnx/export/onnx_export_support.hpp is missing)";
#endif
  return t;
}

TargetTable tflite_table() {
  TargetTable t;
  t.target = "TFLITE";
  for (const auto& name : nn::formats::tflite_exportable_functions()) t.functions.insert(name);
  return t;
}

int newest_api_level() { return nn::formats::nnb::newest_api_level(); }

std::vector<std::string> api_level_functions(int level) {
  std::vector<std::string> names;
  for (const auto& [key, entry] : nn::formats::nnb::function_table(level))
    names.push_back(entry.type + "_" + (entry.argcode.empty() ? "Empty" : entry.argcode));
  return names;
}

std::set<std::string> model_functions(const std::vector<std::string>& files, const ImportOptions& options) {
  std::set<std::string> used;
  for (const auto& file : files) {
    const nn::ir::Model model = import_model({file}, options);
    // As upstream: the network of the first executor (its first network of that name); every network
    // when the model has no executor (upstream fails there).
    const std::string wanted = model.executors.empty() ? "" : model.executors.front().network_name;
    for (const auto& network : model.networks) {
      if (!wanted.empty() && network.name != wanted) continue;
      for (const auto& function : network.functions) used.insert(function.type);
      if (!wanted.empty()) break;
    }
  }
  return used;
}

std::set<std::string> FunctionList::names() const {
  std::set<std::string> out;
  for (const auto& [name, unused] : types) out.insert(name);
  return out;
}

namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace

FunctionList read_function_list(const std::string& path) {
  std::ifstream in(path);
  NN_CHECK(in.good()) << "'" << path << "': cannot open the function-list file";
  FunctionList list;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const std::string text = trim(line);
    if (text.empty() || text[0] == ';') continue;
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t comma = text.find(',');; comma = text.find(',', start)) {
      parts.push_back(trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    NN_CHECK(!parts[0].empty()) << "'" << path << "':" << line_number << ": empty function name";
    if (parts[0].find('@') != std::string::npos) {
      list.onnx_targets.push_back(parts[0]);
      continue;
    }
    auto& types = list.types[parts[0]];
    for (size_t i = 1; i < parts.size(); ++i)
      if (!parts[i].empty()) types.push_back(parts[i]);
  }
  return list;
}

std::optional<int> parse_opset(const std::string& text) {
  static const std::regex re(R"(^opset_([0-9]{1,3})$)");
  std::smatch m;
  if (!std::regex_match(text, m, re)) return std::nullopt;
  return std::stoi(m[1].str());
}

std::string uniq_name(const std::string& type) {
  if (!nn::OpRegistry::instance().find(type)) return type;
  const std::string codes = nn::formats::nnb::argument_codes(type);
  return type + "_" + (codes.empty() ? "Empty" : codes);
}

}  // namespace nncli::function_info
