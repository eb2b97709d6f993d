// Fuzzes image decoding as datasets use it: bytes -> header size check -> decoded pixels.
#include <string>

#include "formats/datasets/image_io.hpp"
#include "nn/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 20)) return 0;
  try {
    (void)nn::formats::datasets::decode_image(std::string(reinterpret_cast<const char*>(data), size), "fuzz.png");
  } catch (const nn::Error&) {
  }
  return 0;
}
