// The arguments ONNXResize and ONNXResizeTo share: how ONNX's Resize samples (mode ... nearest_mode).
#pragma once
#include "nn/ops/op_schema.hpp"

namespace nn::ops {

// Adds mode, coordinate_transformation_mode, cubic_coeff_a, exclude_outside, extrapolation_value and nearest_mode
// (ONNX's defaults) to `schema`.
SchemaBuilder& with_resize_modes(SchemaBuilder& schema);

}  // namespace nn::ops
