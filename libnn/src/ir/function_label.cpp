// The one way error text names a function.
#include "nn/ir/function_label.hpp"

namespace nn::ir {

std::string label(const Function& f, size_t index) {
  const std::string who = f.name.empty() && index != kNoIndex ? "#" + std::to_string(index) : "'" + f.name + "'";
  return "function " + who + " (" + f.type + ")";
}

}  // namespace nn::ir
