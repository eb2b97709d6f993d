// Fuzzes the TFLite reader (FlatBuffers verifier, index/buffer/shape checks) and importer, then the graph builder.
#include <string>

#include "formats/tflite/tflite_import.hpp"
#include "fuzz_build.hpp"
#include "nn/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 20)) return 0;
  try {
    auto model = nn::formats::import_tflite_bytes(std::string(reinterpret_cast<const char*>(data), size));
    nn::fuzz::build_all(model);
  } catch (const nn::Error&) {
  }
  return 0;
}
