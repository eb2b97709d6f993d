// Dropout's arguments, read once for the CPU kernel and the CUDA one that mirrors it.
#pragma once
#include <cstdint>

#include "nn/ops/attributes.hpp"

namespace nn::ops {

struct DropoutArgs {
  double p;      // the probability of dropping an element
  int64_t seed;  // -1: the global generator
  explicit DropoutArgs(const Attrs& a) : p(a.get_float("p")), seed(a.get_int("seed")) {}
};

}  // namespace nn::ops
