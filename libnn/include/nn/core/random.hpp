// Seeded random generation shared by initializers, stochastic functions and datasets.
#pragma once
#include <cstdint>
#include <random>

namespace nn {

using RandomEngine = std::mt19937;

// The process-wide generator (nnabla's global seed). seed() makes runs reproducible bit for bit.
RandomEngine& global_random();
void set_global_seed(uint32_t seed);

// Engine for a function's own `seed` argument: -1 shares the global generator, else a private one.
class SeededRandom {
 public:
  explicit SeededRandom(int64_t seed) : own_(seed >= 0), engine_(seed >= 0 ? uint32_t(seed) : 0u) {}
  RandomEngine& engine() { return own_ ? engine_ : global_random(); }

 private:
  bool own_;
  RandomEngine engine_;
};

}  // namespace nn
