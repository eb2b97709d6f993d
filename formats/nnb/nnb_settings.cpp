// NNB settings YAML read with yaml-cpp and the nnb_template writer (upstream's yaml.dump layout).
#include "formats/nnb/nnb_settings.hpp"

#include <yaml-cpp/yaml.h>

#include <regex>

#include "formats/common/atomic_file.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::nnb {

VariableType parse_variable_type(const std::string& text, const std::string& where) {
  VariableType t;
  std::string name = text;
  const size_t underscore = text.find('_');
  if (underscore != std::string::npos) {
    name = text.substr(0, underscore);
    const std::string pos = text.substr(underscore + 1);
    NN_CHECK(!pos.empty() && pos.size() <= 2 && pos.find_first_not_of("0123456789") == std::string::npos)
        << where << ": variable type '" << text << "': fp_pos after '_' must be a number 0..15";
    t.fp_pos = std::stoi(pos);
    NN_CHECK(*t.fp_pos <= 15) << where << ": variable type '" << text << "': fp_pos must be 0..15";
  }
  if (name == "FLOAT32")
    t.type = DataType::kFloat;
  else if (name == "FIXED16")
    t.type = DataType::kInt16;
  else if (name == "FIXED8")
    t.type = DataType::kInt8;
  else if (name == "SIGN")
    t.type = DataType::kSign;
  else
    NN_FAIL(ErrorCode::kInvalid) << where << ": unknown variable type '" << text
                                 << "' (FLOAT32, FIXED16, FIXED8 or SIGN, optionally _<fp_pos>)";
  return t;
}

NnbSettings read_settings(const std::string& path) {
  const std::string where = "'" + path + "'";
  YAML::Node root;
  try {
    root = YAML::Load(read_file(path));
  } catch (const YAML::Exception& e) {
    NN_FAIL(ErrorCode::kInvalid) << where << ":" << e.mark.line + 1 << ":" << e.mark.column + 1
                                 << ": invalid YAML: " << e.msg;
  }
  NnbSettings s;
  if (!root || root.IsNull()) return s;
  NN_CHECK(root.IsMap()) << where << ": settings must be a mapping with 'functions' and 'variables'";
  try {
    if (const YAML::Node functions = root["functions"]; functions && functions.IsMap()) {
      for (const auto& kv : functions) {
        const std::string name = kv.first.as<std::string>();
        const YAML::Node impl = kv.second.IsMap() ? kv.second["implement"] : YAML::Node();
        s.implement[name] = impl ? impl.as<int>() : 0;
      }
    }
    if (const YAML::Node variables = root["variables"]; variables && variables.IsMap()) {
      for (const auto& kv : variables) {
        const std::string name = kv.first.as<std::string>();
        s.variables[name] = parse_variable_type(kv.second.as<std::string>(), where + ": variable '" + name + "'");
      }
    }
  } catch (const YAML::Exception& e) {
    NN_FAIL(ErrorCode::kInvalid) << where << ":" << e.mark.line + 1 << ":" << e.mark.column + 1 << ": " << e.msg;
  }
  return s;
}

namespace {

// Whether PyYAML would read the plain scalar back as something other than a string.
bool resolves_implicitly(const std::string& s) {
  static const std::regex implicit(
      "yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|~|null|Null|NULL|<<|=|"
      "[-+]?(0b[0-1_]+|0[0-7_]+|(0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+|[1-9][0-9_]*(:[0-5]?[0-9])+)|"
      "[-+]?([0-9][0-9_]*)?\\.[0-9_]*([eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*|"
      "[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*");
  return std::regex_match(s, implicit);
}

// PyYAML's rule for writing a scalar plain in block context (emitter.analyze_scalar), simplified to
// printable ASCII names: otherwise it is single-quoted.
bool plain_allowed(const std::string& s) {
  if (s.empty() || s.front() == ' ' || s.back() == ' ' || resolves_implicitly(s)) return false;
  if (std::string("#,[]{}&*!|>'\"%@`").find(s.front()) != std::string::npos) return false;
  if ((s.front() == '-' || s.front() == '?' || s.front() == ':') && (s.size() == 1 || s[1] == ' ')) return false;
  if (s.rfind("---", 0) == 0 || s.rfind("...", 0) == 0) return false;
  for (size_t k = 0; k < s.size(); ++k) {
    const unsigned char c = static_cast<unsigned char>(s[k]);
    if (c < 0x20 || c >= 0x7F) return false;
    if (c == ':' && (k + 1 == s.size() || s[k + 1] == ' ')) return false;
    if (c == '#' && k > 0 && s[k - 1] == ' ') return false;
  }
  return true;
}

std::string yaml_scalar(const std::string& s) {
  if (plain_allowed(s)) return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

// "key: value" lines at `indent`; an empty key is not a simple key for PyYAML ("? ''" / ": value").
std::string yaml_entry(const std::string& key, const std::string& value_line, const std::string& indent) {
  if (key.empty()) return indent + "? ''\n" + indent + ": " + value_line + "\n";
  return indent + yaml_scalar(key) + ":" + (value_line.empty() ? "" : " " + value_line) + "\n";
}

}  // namespace

std::string settings_template(const nn::ir::Network& network, const std::string& default_type) {
  std::string out = "functions:\n";
  for (const auto& f : network.functions)
    out += f.name.empty() ? yaml_entry("", "implement: 0", "  ")
                          : yaml_entry(f.name, "", "  ") + "    implement: 0\n";
  out += "variables:\n";
  for (const auto& v : network.variables) out += yaml_entry(v.name, yaml_scalar(default_type), "  ");
  return out;
}

}  // namespace nn::formats::nnb
