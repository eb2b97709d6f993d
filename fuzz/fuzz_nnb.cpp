// Fuzzes the NNB reader: bytes -> read_nnb -> dump and the ir::Model it maps to, built at batch 1.
#include <string>

#include "formats/nnb/nnb_dump.hpp"
#include "formats/nnb/nnb_file.hpp"
#include "formats/nnb/nnb_to_ir.hpp"
#include "fuzz_build.hpp"
#include "nn/core/error.hpp"

namespace {
// Networks whose shapes span more elements than this are read, dumped and mapped but not built: the engine
// would legitimately need gigabytes (the reader accepts up to 2^28 elements per variable), more than the
// fuzzer's -malloc_limit_mb. Zero dims count as 1: a function may reduce them away (Mean over an empty axis
// of a (1e9, 0, 4) input has a (1e9, 1, 4) output).
constexpr int64_t kBuildElementBudget = int64_t(1) << 24;
constexpr int64_t kArgumentLimit = 1 << 16;

bool small_enough_to_build(const nn::formats::nnb::NnbNetwork& network) {
  int64_t total = 0;
  for (const auto& v : network.variables) {
    int64_t span = 1;
    for (int32_t d : v.shape)
      if (__builtin_mul_overflow(span, int64_t(d > 0 ? d : 1), &span)) return false;
    total += span;
    if (span > kBuildElementBudget || total > kBuildElementBudget) return false;
  }
  // Integer arguments size outputs too (Pad widths, Reshape shapes, Tile repeats ...).
  for (const auto& f : network.functions)
    for (const auto& a : f.args) {
      if (a.code == "i" && (a.i > kArgumentLimit || a.i < -kArgumentLimit)) return false;
      for (int32_t v : a.list)
        if (v > kArgumentLimit || v < -kArgumentLimit) return false;
    }
  return true;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 20)) return 0;
  try {
    const auto network =
        nn::formats::nnb::read_nnb(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
    (void)nn::formats::nnb::dump_nnb(network);
    const nn::ir::Model model = nn::formats::nnb::nnb_to_model(network);
    if (small_enough_to_build(network)) nn::fuzz::build_all(model);
  } catch (const nn::Error&) {
  }
  return 0;
}
