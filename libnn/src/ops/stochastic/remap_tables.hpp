// The random index tables of RandomFlip and RandomShift, one sample at a time: shared by the CPU kernels
// and the CUDA ones, so the same seed gives the same draws (and results) on both backends.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/core/random.hpp"
#include "nn/core/shape.hpp"

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

}  // namespace nn::ops
