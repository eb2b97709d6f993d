// NNB function facts (nnb_function_ids.def): ids and argument codes per API level, c-runtime support.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace nn::formats::nnb {

struct FunctionIdEntry {
  int level = 0;
  std::string type;     // nnabla function type, e.g. "Convolution"
  std::string argcode;  // e.g. "iiIiIiIiB" ("" for no arguments)
  int id = 0;
};

// The newest API level the table knows (what `--api -1` exports).
int newest_api_level();
// The level an export with `--api requested` uses: requested when 1 <= requested <= newest, else newest.
int effective_api_level(int requested);
// Function table of a level: the union of levels 1..level, later entries overriding earlier ones.
const std::map<std::string, FunctionIdEntry>& function_table(int level);
// The entry with this id (any level), or nullptr.
const FunctionIdEntry* function_by_id(int id);
// Splits an argcode into per-argument codes: "i", "f", "B", "iI" (list), "fF" (floats), "C".
std::vector<std::string> split_argcode(const std::string& argcode);
// Whether nnabla-c-runtime implements `type` (at the newest level).
bool c_runtime_implements(const std::string& type);
// The inputs of `type` an NNB stores transposed (2-D parameters, output-major); empty for most functions.
const std::vector<size_t>& transposed_inputs(const std::string& type);

}  // namespace nn::formats::nnb
