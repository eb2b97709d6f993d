// ONNX protobuf loading with clear errors, opset checks and TensorProto <-> float array conversion.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nn/core/shape.hpp"
#include "onnx/onnx_pb.h"

namespace nn::formats::onnx {

// Default-domain opsets nncli reads and writes.
inline constexpr int64_t kMinOpset = 1;
inline constexpr int64_t kMaxOpset = 17;
// Highest IR version the Debian onnx library (1.12) defines.
inline constexpr int64_t kMaxIrVersion = 8;

// Reads and parses `path`; throws nn::Error naming the file for unreadable or malformed protobuf and for
// IR versions newer than kMaxIrVersion.
::onnx::ModelProto load_model_proto(const std::string& path);
// Parses bytes already in memory (`label` names them in errors).
::onnx::ModelProto parse_model_proto(std::string_view bytes, const std::string& label);

// The default-domain ("" or "ai.onnx") opset of the model; throws kUnsupported when it is outside
// [kMinOpset, kMaxOpset] or when an operator set of an unknown domain is imported.
int64_t default_opset(const ::onnx::ModelProto& model);

// A tensor's values as float with its dims (0-d -> shape [1] when promote_scalar). For INT32/INT64/BOOL/
// UINT8... tensors `ints` holds the exact integer values too. External data is read relative to base_dir.
struct TensorData {
  Shape shape;
  std::vector<float> values;
  std::vector<int64_t> ints;  // only for integer/bool tensors
  int32_t data_type = 1;
};
TensorData read_tensor(const ::onnx::TensorProto& tensor, const std::string& base_dir);

// A FLOAT tensor holding `values` with `dims` (raw_data, little endian).
::onnx::TensorProto make_float_tensor(const std::string& name, const Shape& dims,
                                      const std::vector<float>& values);

// The name of an ONNX TensorProto data type ("FLOAT", "INT64", ...).
std::string data_type_name(int32_t data_type);

}  // namespace nn::formats::onnx
