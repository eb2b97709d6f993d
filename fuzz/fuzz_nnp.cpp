// Fuzzes the .nnp reader (zip container, members, parameters) through load_model on a file in /dev/shm.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "formats/nnp/nnp_reader.hpp"
#include "fuzz_build.hpp"
#include "nn/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 20)) return 0;
  static const std::string path = "/dev/shm/nncli_fuzz_" + std::to_string(getpid()) + ".nnp";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  try {
    auto model = nn::formats::load_model({path});
    nn::fuzz::build_all(model);
  } catch (const nn::Error&) {
  }
  return 0;
}
