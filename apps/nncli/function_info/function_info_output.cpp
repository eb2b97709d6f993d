// Renderings of `nncli function_info` results: plain list, YAML database, -q details and JSON.
#include "function_info/function_info_output.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

#include "nn/core/error.hpp"
#include "nn/ops/op_registry.hpp"
#include "common/json_text.hpp"

namespace nncli::function_info {

namespace {

const nn::OpSchema& schema_of(const std::string& type) {
  const nn::OpSchema* schema = nn::OpRegistry::instance().find(type);
  NN_CHECK_CODE(schema, nn::ErrorCode::kUnsupported)
      << "unknown function '" << type << "' (not in this nncli's function registry)";
  return *schema;
}

std::string default_text(const nn::ArgSpec& arg) {
  if (arg.default_value) return nn::attr_to_string(*arg.default_value);
  return arg.default_doc.empty() ? "(required)" : "(" + arg.default_doc + ")";
}

std::string support_word(const TargetTable& table, const std::string& type) {
  if (!table.available) return "unknown";
  return table.functions.count(type) ? "support" : "not support";
}

std::string yaml_flow_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out + "]";
}

}  // namespace

std::string plain_list(const std::set<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : "\n") + name;
  return out;
}

std::string yaml_database(const std::map<std::string, std::vector<std::string>>& func_types,
                          const TargetTable& nnb) {
  // Upstream groups by category in its catalog order; nncli orders categories and functions by name.
  std::map<std::string, std::vector<std::string>> by_category;
  for (const auto& [type, unused] : func_types) by_category[schema_of(type).category].push_back(type);
  std::ostringstream os;
  os << "# Function database written by nncli function_info (nnabla functions.yaml layout, docs removed).\n";
  for (const auto& [category, types] : by_category) {
    os << category << ":\n";
    for (const auto& type : types) {
      const nn::OpSchema& s = schema_of(type);
      os << "  " << type << ":\n    snake_name: " << s.snake_name << "\n";
      os << "    inputs:" << (s.inputs.empty() ? " {}" : "") << "\n";
      for (const auto& in : s.inputs) {
        os << "      " << in.name << ":" << (in.optional || in.variadic || in.parameter ? "" : " {}") << "\n";
        if (in.optional) os << "        optional: true\n";
        if (in.variadic) os << "        variadic: true\n";
        if (in.parameter) os << "        parameter: true\n";
      }
      os << "    arguments:" << (s.args.empty() ? " {}" : "") << "\n";
      for (const auto& arg : s.args)
        os << "      " << arg.name << ":\n        type: " << nn::attr_type_name(arg.type)
           << "\n        default: " << default_text(arg) << "\n";
      os << "    outputs:\n";
      for (const auto& out : s.outputs)
        os << "      " << out.name << ":" << (out.variadic ? "\n        variadic: true" : " {}") << "\n";
      os << "    c_runtime: " << support_word(nnb, type) << "\n";
      os << "    uniq_name: " << uniq_name(type) << "\n";
      const auto& types_of = func_types.at(type);
      os << "    func_type: " << yaml_flow_list(types_of.empty() ? std::vector<std::string>{"None"} : types_of)
         << "\n";
    }
  }
  return os.str();
}

std::string query_text(const std::string& type, const std::vector<TargetTable>& targets) {
  const nn::OpSchema& s = schema_of(type);
  std::ostringstream os;
  os << type << ":\n  category: " << s.category << "\n  snake_name: " << s.snake_name
     << "\n  uniq_name: " << uniq_name(type) << "\n";
  if (!s.doc.empty()) os << "  doc: " << s.doc << "\n";
  os << "  inputs:" << (s.inputs.empty() ? " []" : "") << "\n";
  for (const auto& in : s.inputs) {
    os << "  - " << in.name;
    if (in.optional) os << " (optional)";
    if (in.variadic) os << " (variadic)";
    if (in.parameter) os << " (parameter)";
    os << "\n";
  }
  os << "  arguments:" << (s.args.empty() ? " []" : "") << "\n";
  for (const auto& arg : s.args)
    os << "  - " << arg.name << ": " << nn::attr_type_name(arg.type) << " = " << default_text(arg) << "\n";
  os << "  outputs:\n";
  for (const auto& out : s.outputs) os << "  - " << out.name << (out.variadic ? " (variadic)" : "") << "\n";
  os << "  backends: " << yaml_flow_list(nn::OpRegistry::instance().kernels(type)) << "\n";
  os << "  targets:\n";
  for (const auto& t : targets) os << "    " << t.target << ": " << support_word(t, type) << "\n";
  return os.str();
}

std::string query_json(const std::string& type, const std::vector<TargetTable>& targets) {
  const nn::OpSchema& s = schema_of(type);
  nlohmann::ordered_json j;
  j["function"] = type;
  j["category"] = s.category;
  j["snake_name"] = s.snake_name;
  j["uniq_name"] = uniq_name(type);
  j["inputs"] = nlohmann::json::array();
  for (const auto& in : s.inputs)
    j["inputs"].push_back(
        {{"name", in.name}, {"optional", in.optional}, {"variadic", in.variadic}, {"parameter", in.parameter}});
  j["arguments"] = nlohmann::json::array();
  for (const auto& arg : s.args) {
    nlohmann::ordered_json a{{"name", arg.name}, {"type", nn::attr_type_name(arg.type)}};
    a["default"] = arg.default_value ? nlohmann::json(nn::attr_to_string(*arg.default_value)) : nlohmann::json();
    if (!arg.default_doc.empty()) a["default_doc"] = arg.default_doc;
    j["arguments"].push_back(a);
  }
  j["outputs"] = nlohmann::json::array();
  for (const auto& out : s.outputs) j["outputs"].push_back({{"name", out.name}, {"variadic", out.variadic}});
  j["backends"] = nn::OpRegistry::instance().kernels(type);
  for (const auto& t : targets)
    j["targets"][t.target] = t.available ? nlohmann::json(t.functions.count(type) != 0) : nlohmann::json();
  return json_text(j, 2) + "\n";
}

std::string result_json(const ListResult& result) {
  nlohmann::ordered_json j;
  j["target"] = result.target;
  j["files"] = result.files;
  j["supported"] = result.supported;
  j["unsupported"] = result.unsupported;
  return json_text(j, 2) + "\n";
}

}  // namespace nncli::function_info
