// Renderings of `nncli function_info` results: upstream's plain list and YAML function database, the
// details of one function (-q) and JSON.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "function_info/function_info_sets.hpp"

namespace nncli::function_info {

// Names joined by '\n' (sorted: upstream prints Python set order).
std::string plain_list(const std::set<std::string>& names);

// YAML function database (category -> function -> snake_name, inputs, arguments, outputs, c_runtime,
// uniq_name, func_type). func_types: per listed function its types from -c ("ALL" without -c).
// nnb: the NNB table (for c_runtime: support / not support / unknown when not built).
std::string yaml_database(const std::map<std::string, std::vector<std::string>>& func_types,
                          const TargetTable& nnb);

// Details of one function: inputs, arguments with types and defaults, outputs, supported targets.
std::string query_text(const std::string& type, const std::vector<TargetTable>& targets);
std::string query_json(const std::string& type, const std::vector<TargetTable>& targets);

struct ListResult {
  std::string target;
  std::vector<std::string> files;
  std::set<std::string> supported;
  std::set<std::string> unsupported;
};
std::string result_json(const ListResult& result);

}  // namespace nncli::function_info
