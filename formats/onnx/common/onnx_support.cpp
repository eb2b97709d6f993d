// The importer's operator table as "Op@since-until" strings.
#include "formats/onnx/common/onnx_support.hpp"

#include <algorithm>

#include "formats/onnx/import/op_rules.hpp"

namespace nn::formats::onnx {

std::vector<std::string> onnx_importable_operators() {
  std::vector<std::string> out;
  for (const auto& rule : import_rules())
    out.push_back(std::string(rule.op) + "@" + std::to_string(rule.since) + "-" + std::to_string(rule.until));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace nn::formats::onnx
