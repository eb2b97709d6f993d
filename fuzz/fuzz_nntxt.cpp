// Fuzzes the nntxt (protobuf text) reader, the loop expansion and the graph builder.
#include <string_view>

#include "formats/nnp/nnp_reader.hpp"
#include "fuzz_build.hpp"
#include "nn/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 16)) return 0;
  try {
    auto model =
        nn::formats::parse_nntxt(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.nntxt");
    nn::fuzz::build_all(model);
  } catch (const nn::Error&) {
  }
  return 0;
}
