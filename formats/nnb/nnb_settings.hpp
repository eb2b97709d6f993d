// NNB settings YAML (-s): per-function implement numbers and per-variable types (FIXED16_8 ...).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "formats/nnb/nnb_file.hpp"
#include "nn/ir/model.hpp"

namespace nn::formats::nnb {

struct VariableType {
  DataType type = DataType::kFloat;
  std::optional<int> fp_pos;  // TYPE_<n>
};
// "FLOAT32", "FIXED16", "FIXED8", "SIGN", optionally with "_<fp_pos>"; throws naming `where`.
VariableType parse_variable_type(const std::string& text, const std::string& where);

struct NnbSettings {
  std::map<std::string, int> implement;           // function name -> implement
  std::map<std::string, VariableType> variables;  // variable name -> type
};
NnbSettings read_settings(const std::string& path);

// nnb_template's YAML: every function with implement 0, then every variable with `default_type`.
std::string settings_template(const nn::ir::Network& network, const std::string& default_type);

}  // namespace nn::formats::nnb
