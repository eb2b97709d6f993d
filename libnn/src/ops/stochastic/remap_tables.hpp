// The arguments and random index tables of RandomFlip and RandomShift, one sample at a time: shared by the
// CPU kernels and the CUDA ones, so the same seed gives the same draws (and results) on both backends.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/core/random.hpp"
#include "nn/core/shape.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::ops {

// Per axis after base_axis: output index -> input index (-1: the constant fill value).
using RemapSampleTables = std::vector<std::vector<int64_t>>;

// RandomFlip: one coin per axis of x (those before base_axis too, as upstream, so the stream matches);
// axis d (>= base_axis) is reversed when flip_axis[d] and its coin came up.
RemapSampleTables draw_flip_tables(RandomEngine& engine, const std::vector<bool>& flip_axis, int base_axis,
                                   const Shape& inner_shape);
// RandomShift: one uniform shift in [-shifts[i], shifts[i]] per entry (covering the trailing axes), then the
// tables for border_mode "nearest", "reflect" or "constant".
RemapSampleTables draw_shift_tables(RandomEngine& engine, const std::vector<int64_t>& shifts,
                                    const std::string& mode, const Shape& inner_shape);

// base_axis of RandomFlip / RandomShift (fn), checked against x: the axes from it on are remapped per sample.
int remap_base_axis(const Attrs& attrs, const Shape& xs, const std::string& fn);
// RandomFlip: which of x's nd axes may be reversed (`axes`, default the last; none before base_axis).
std::vector<bool> random_flip_axes(const Attrs& attrs, size_t nd, int base_axis);
// RandomShift: the shift bound per trailing axis, border_mode and constant_value, checked against the
// axes after base_axis (inner_shape) of x.
struct RandomShiftArgs {
  std::vector<int64_t> shifts;
  std::string border_mode;
  float constant_value;
  RandomShiftArgs(const Attrs& attrs, const Shape& inner_shape, const Shape& xs);
};

}  // namespace nn::ops
