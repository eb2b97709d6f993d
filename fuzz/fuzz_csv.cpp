// Fuzzes the dataset text readers: bytes -> NNC CSV records and the npy records of cache files.
#include <string>

#include "formats/datasets/csv_text.hpp"
#include "formats/datasets/npy.hpp"
#include "nn/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 20)) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    for (const auto& record : nn::formats::datasets::parse_csv(bytes, "fuzz.csv")) {
      double value = 0;
      for (const auto& cell : record.cells) (void)nn::formats::datasets::parse_python_float(cell, value);
    }
  } catch (const nn::Error&) {
  }
  try {
    size_t offset = 0;
    while (offset < bytes.size()) (void)nn::formats::datasets::read_npy(bytes, offset, "fuzz.npy");
  } catch (const nn::Error&) {
  }
  return 0;
}
