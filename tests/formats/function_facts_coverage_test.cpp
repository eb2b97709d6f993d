// Coverage of per-function facts: the schema's arguments are nnabla.proto's, and every export and import rule
// (ONNX, TFLite) names a function of the op inventory.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "formats/nnp/reflect_attrs.hpp"
#include "formats/onnx/export/onnx_emitter.hpp"
#include "formats/tflite/tflite_export.hpp"
#include "nn/ops/op_registry.hpp"

namespace {

const nn::OpRegistry& registry() { return nn::OpRegistry::instance(); }

// nncli's own inference functions for ONNX control flow and shapes computed from the data: nnabla.proto has no
// message for them (the NNP writer refuses their arguments and sub-graphs).
const std::set<std::string> kNotInNnablaProto = {"Loop",       "If",        "ONNXSlice",           "ONNXReshape",
                                                 "ONNXExpand", "ONNXRange", "ONNXConstantOfShape", "ONNXResizeTo"};

// Every function: the schema's arguments are the fields of its *_param message, in order, with their types
// (float fields may be read as double and the reverse: both are "f" in NNB and text formats).
TEST(FunctionFactsCoverage, SchemaArgumentsAreNnablaProtoFields) {
  size_t with_arguments = 0;
  for (const std::string& type : registry().names()) {
    if (kNotInNnablaProto.count(type)) continue;
    const nn::OpSchema& schema = registry().get(type);
    const auto fields = nn::formats::nnp::function_arguments(type);
    with_arguments += fields.empty() ? 0 : 1;
    ASSERT_EQ(schema.args.size(), fields.size()) << type;
    for (size_t k = 0; k < fields.size(); ++k) {
      EXPECT_EQ(schema.args[k].name, fields[k].name) << type << " argument " << k;
      auto same_kind = [](nn::AttrType a, nn::AttrType b) {
        auto real = [](nn::AttrType t) { return t == nn::AttrType::kFloat || t == nn::AttrType::kDouble; };
        auto list = [](nn::AttrType t) { return t == nn::AttrType::kShape || t == nn::AttrType::kInts; };
        return a == b || (real(a) && real(b)) || (list(a) && list(b));
      };
      EXPECT_TRUE(same_kind(schema.args[k].type, fields[k].type))
          << type << "." << fields[k].name << ": schema " << nn::attr_type_name(schema.args[k].type)
          << ", nnabla.proto " << nn::attr_type_name(fields[k].type);
    }
  }
  EXPECT_GT(with_arguments, 150u);
  for (const std::string& type : nn::formats::nnp::function_types_with_parameters())
    EXPECT_NE(registry().find(type), nullptr) << type << " has a *_param message but no schema";
}

TEST(FunctionFactsCoverage, OnnxExportRulesNameInventoryFunctions) {
  const auto& rules = nn::formats::onnx_export::all_rules();
  ASSERT_GT(rules.size(), 100u);
  for (const auto& rule : rules) EXPECT_NE(registry().find(rule.type), nullptr) << rule.type;
}

TEST(FunctionFactsCoverage, TfliteExportRulesNameInventoryFunctions) {
  const auto names = nn::formats::tflite_exportable_functions();
  ASSERT_GT(names.size(), 10u);
  for (const auto& name : names) EXPECT_NE(registry().find(name), nullptr) << name;
}

// The import rules build nnabla functions by name (ImportContext::emit/emit1, the TFLite importer's fn): every
// name literal in the first argument of those calls is an inventory function.
std::set<std::string> emitted_names(const std::filesystem::path& file, const std::regex& call) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const std::string source = text.str();
  std::set<std::string> names;
  static const std::regex literal(R"re("([A-Za-z0-9_]+)")re");
  for (std::sregex_iterator it(source.begin(), source.end(), call), end; it != end; ++it) {
    // The first argument: up to the first comma outside parentheses.
    size_t pos = size_t(it->position() + it->length()), depth = 0, stop = pos;
    for (; stop < source.size(); ++stop) {
      const char c = source[stop];
      if (c == '(' || c == '{') ++depth;
      if ((c == ')' || c == '}') && depth-- == 0) break;
      if (c == ',' && depth == 0) break;
    }
    const std::string first = source.substr(pos, stop - pos);
    for (std::sregex_iterator l(first.begin(), first.end(), literal), lend; l != lend; ++l) names.insert((*l)[1]);
  }
  return names;
}

TEST(FunctionFactsCoverage, ImportRulesEmitInventoryFunctions) {
  const std::filesystem::path root = NN_SOURCE_DIR;
  const std::regex onnx_call(R"(\bemit1?\(\s*)"), tflite_call(R"(\bfn\(\s*)");
  std::set<std::string> seen;
  for (const auto& entry : std::filesystem::directory_iterator(root / "formats/onnx/import"))
    if (entry.path().extension() == ".cpp")
      for (const auto& name : emitted_names(entry.path(), onnx_call)) seen.insert(name);
  const size_t onnx_names = seen.size();
  for (const auto& entry : std::filesystem::directory_iterator(root / "formats/tflite"))
    if (entry.path().filename().string().rfind("tflite_import", 0) == 0)
      for (const auto& name : emitted_names(entry.path(), tflite_call)) seen.insert(name);
  EXPECT_GT(onnx_names, 50u) << "the scan of formats/onnx/import found too few emit calls";
  EXPECT_GT(seen.size(), onnx_names) << "the scan of the TFLite importer found no fn calls";
  for (const auto& name : seen) EXPECT_NE(registry().find(name), nullptr) << name;
}

}  // namespace
