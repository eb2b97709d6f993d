// The process-wide random generator.
#include "nn/core/random.hpp"

namespace nn {
namespace {
RandomEngine& engine_storage() {
  static RandomEngine e(313);  // nnabla's default seed
  return e;
}
}  // namespace
RandomEngine& global_random() { return engine_storage(); }
void set_global_seed(uint32_t seed) { engine_storage().seed(seed); }
}  // namespace nn
