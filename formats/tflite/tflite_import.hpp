// TFLite -> ir::Model import (network "main", executor exec_0): float exactly; quantized tensors dequantized,
// with every quantized activation rounded and saturated to its own scale and zero point as TFLite does.
#pragma once
#include <string>

#include "nn/ir/model.hpp"

namespace nn::formats {

// Throws nn::Error: kInvalid for malformed files, kUnsupported for operators or options nncli lacks (every
// unsupported operator named in one line).
ir::Model import_tflite(const std::string& path);
ir::Model import_tflite_bytes(const std::string& bytes);

}  // namespace nn::formats
