// NNB function-id table built from nnb_function_ids.def.
#include "formats/nnb/nnb_function_table.hpp"

#include <algorithm>
#include <mutex>

#include "formats/nnb/nnb_support.hpp"

namespace nn::formats::nnb {

namespace {

const std::vector<FunctionIdEntry>& all_entries() {
  static const std::vector<FunctionIdEntry> entries = {
#define NNB_FUNCTION_ID(level, type, argcode, id) {level, #type, argcode, id},
#define NNB_C_RUNTIME(type, ...)
#include "formats/nnb/nnb_function_ids.def"
#undef NNB_C_RUNTIME
#undef NNB_FUNCTION_ID
  };
  return entries;
}

// nnabla-c-runtime's functions -> the inputs an NNB stores transposed.
const std::map<std::string, std::vector<size_t>>& c_runtime_table() {
  static const std::map<std::string, std::vector<size_t>> table = {
#define NNB_FUNCTION_ID(level, type, argcode, id)
#define NNB_C_RUNTIME(type, ...) {#type, {__VA_ARGS__}},
#include "formats/nnb/nnb_function_ids.def"
#undef NNB_C_RUNTIME
#undef NNB_FUNCTION_ID
  };
  return table;
}

}  // namespace

int newest_api_level() {
  static const int newest = [] {
    int n = 1;
    for (const auto& e : all_entries()) n = std::max(n, e.level);
    return n;
  }();
  return newest;
}

int effective_api_level(int requested) {
  return requested >= 1 && requested <= newest_api_level() ? requested : newest_api_level();
}

const std::map<std::string, FunctionIdEntry>& function_table(int level) {
  static std::mutex mutex;
  static std::map<int, std::map<std::string, FunctionIdEntry>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(level);
  if (it != cache.end()) return it->second;
  std::vector<FunctionIdEntry> sorted = all_entries();
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const FunctionIdEntry& a, const FunctionIdEntry& b) { return a.level < b.level; });
  std::map<std::string, FunctionIdEntry> table;
  for (const auto& e : sorted)
    if (e.level <= level) table[e.type] = e;
  return cache.emplace(level, std::move(table)).first->second;
}

const FunctionIdEntry* function_by_id(int id) {
  for (const auto& e : all_entries())
    if (e.id == id) return &e;
  return nullptr;
}

std::vector<std::string> split_argcode(const std::string& argcode) {
  std::vector<std::string> codes;
  for (size_t i = 0; i < argcode.size(); ++i) {
    const bool list = i + 1 < argcode.size() && ((argcode[i] == 'i' && argcode[i + 1] == 'I') ||
                                                 (argcode[i] == 'f' && argcode[i + 1] == 'F'));
    if (list) {
      codes.push_back(argcode.substr(i, 2));
      ++i;
    } else {
      codes.push_back(std::string(1, argcode[i]));
    }
  }
  return codes;
}

bool c_runtime_implements(const std::string& type) { return c_runtime_table().count(type) != 0; }

const std::vector<size_t>& transposed_inputs(const std::string& type) {
  static const std::vector<size_t> none;
  auto it = c_runtime_table().find(type);
  return it == c_runtime_table().end() ? none : it->second;
}

std::vector<std::string> nnb_supported_functions(int api_level) {
  const auto& table = function_table(effective_api_level(api_level));
  std::vector<std::string> names;
  for (const auto& [name, inputs] : c_runtime_table())
    if (table.count(name)) names.push_back(name);
  return names;
}

}  // namespace nn::formats::nnb
