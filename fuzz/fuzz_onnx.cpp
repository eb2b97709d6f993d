// Fuzzes the ONNX reader and importer (protobuf parsing, opset checks, import rules) and the graph builder.
#include <string_view>

#include "formats/onnx/common/onnx_model_file.hpp"
#include "formats/onnx/import/onnx_importer.hpp"
#include "fuzz_build.hpp"
#include "nn/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 16)) return 0;
  try {
    const auto proto = nn::formats::onnx::parse_model_proto(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.onnx");
    // External data would name arbitrary files: import relative to a folder that does not exist.
    auto model = nn::formats::onnx::import_model_proto(proto, "/nonexistent-fuzz-dir");
    nn::fuzz::build_all(model);
  } catch (const nn::Error&) {
  }
  return 0;
}
