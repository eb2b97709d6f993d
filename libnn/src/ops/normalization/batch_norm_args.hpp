// BatchNormalization's arguments, read once for the CPU kernel and the CUDA one that mirrors it.
#pragma once
#include <vector>

#include "nn/core/error.hpp"
#include "nn/core/shape.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::ops {

struct BatchNormArgs {
  float decay_rate, eps;
  bool batch_stat, no_scale, no_bias;
  std::vector<int64_t> axes;
  explicit BatchNormArgs(const Attrs& a)
      : decay_rate(float(a.get_float("decay_rate"))),
        eps(float(a.get_float("eps"))),
        batch_stat(a.get_bool("batch_stat")),
        no_scale(a.get_bool("no_scale")),
        no_bias(a.get_bool("no_bias")),
        axes(a.get_ints("axes")) {}
  // The channel axis of x (one axis only).
  int axis(const Shape& xs) const {
    NN_CHECK(axes.size() == 1) << "BatchNormalization: only one axis is supported, got axes " << to_string(axes);
    return normalize_axis(axes[0], xs.size(), "BatchNormalization: axis");
  }
};

}  // namespace nn::ops
