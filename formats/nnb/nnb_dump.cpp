// nnablart-style dump of an NNB: header, buffers, variables, functions with arguments, inputs, outputs.
#include "formats/nnb/nnb_dump.hpp"

#include <cstdio>

#include "formats/nnb/nnb_args.hpp"
#include "formats/nnb/nnb_function_table.hpp"

namespace nn::formats::nnb {

namespace {

std::string dims(const std::vector<int32_t>& v) {
  std::string s = "(";
  for (int32_t d : v) s += " " + std::to_string(d);
  return s + " )";
}

std::string float_text(float f) {
  char b[64];
  std::snprintf(b, sizeof b, "%f", double(f));
  return b;
}

}  // namespace

std::string dump_nnb(const NnbNetwork& n) {
  std::string o;
  auto line = [&](const std::string& s) { o += "NNB: " + s + "\n"; };
  line("Version: [" + std::to_string(n.version) + "]");
  line("api_level: [" + std::to_string(n.api_level) + "]");
  line("Has " + std::to_string(n.buffers.size()) + " buffers.");
  for (size_t b = 0; b < n.buffers.size(); ++b)
    line("Buffer id:" + std::to_string(b) + " size:" + std::to_string(n.buffers[b]));
  line("Has " + std::to_string(n.variables.size()) + " variables.");
  for (const auto& v : n.variables) {
    line("Variable id:         " + std::to_string(v.id));
    line("Variable shape:      " + dims(v.shape));
    line("Variable type:       " + std::to_string(int(v.type)));
    line("Variable fp_pos:     " + std::to_string(v.fp_pos));
    line("Variable data_index: " +
         (v.data_index < 0 ? "Buffer[" + std::to_string(-v.data_index - 1) + "]" : std::to_string(v.data_index)));
  }
  line("Has " + std::to_string(n.functions.size()) + " functions.");
  const auto& newest = function_table(newest_api_level());
  for (const auto& f : n.functions) {
    // nnablart names only the current id of each function; older layouts print no type or arguments.
    const FunctionIdEntry* e = function_by_id(f.type);
    const bool current = e && newest.count(e->type) && newest.at(e->type).id == f.type;
    if (current) line("Function type:    " + e->type + "(" + std::to_string(f.type) + ")");
    for (size_t k = 0; k < f.inputs.size(); ++k)
      line("Function input[" + std::to_string(k) + "]:   Variable id:" + std::to_string(f.inputs[k]));
    for (size_t k = 0; k < f.outputs.size(); ++k)
      line("Function output[" + std::to_string(k) + "]:  Variable id:" + std::to_string(f.outputs[k]));
    if (!current) continue;
    const auto names = argument_names(e->type, f.args.size());
    for (size_t k = 0; k < f.args.size(); ++k) {
      const NnbArgument& a = f.args[k];
      const std::string value = a.code == "iI"  ? dims(a.list)
                                : a.code == "f" ? float_text(a.f)
                                                : std::to_string(a.i);
      line("Function argument " + names[k] + ": " + value);
    }
  }
  line("Has " + std::to_string(n.inputs.size()) + " inputs.");
  for (size_t k = 0; k < n.inputs.size(); ++k)
    line("Input[" + std::to_string(k) + "]   Variable id:" + std::to_string(n.inputs[k]));
  line("Has " + std::to_string(n.outputs.size()) + " outputs.");
  for (size_t k = 0; k < n.outputs.size(); ++k)
    line("Output[" + std::to_string(k) + "]  Variable id:" + std::to_string(n.outputs[k]));
  return o;
}

}  // namespace nn::formats::nnb
