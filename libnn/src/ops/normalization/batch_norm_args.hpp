// BatchNormalization's arguments, read once for the CPU kernel and the CUDA one that mirrors it.
#pragma once
#include "nn/ops/attributes.hpp"

namespace nn::ops {

struct BatchNormArgs {
  float decay_rate, eps;
  bool batch_stat, no_scale, no_bias;
  explicit BatchNormArgs(const Attrs& a)
      : decay_rate(float(a.get_float("decay_rate"))),
        eps(float(a.get_float("eps"))),
        batch_stat(a.get_bool("batch_stat")),
        no_scale(a.get_bool("no_scale")),
        no_bias(a.get_bool("no_bias")) {}
};

}  // namespace nn::ops
