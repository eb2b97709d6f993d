// Test helpers: run an imported ONNX model through the engine and compare outputs with tolerances.
#pragma once
#include <string>
#include <vector>

#include "nn/core/shape.hpp"
#include "nn/ir/model.hpp"
#include "onnx/onnx_pb.h"

namespace nn::onnx_test {

struct Array {
  Shape shape;
  std::vector<float> values;
};

// Builds exec_0's network (batch 1, inference), feeds `inputs` in data-variable order, returns the outputs.
std::vector<Array> run_model(const ir::Model& model, const std::vector<Array>& inputs);

// Reads a serialized onnx.TensorProto (.pb) file, as values or as the proto.
Array read_tensor_file(const std::string& path);
::onnx::TensorProto read_tensor_proto(const std::string& path);
// Reads raw little-endian float32.
std::vector<float> read_raw_floats(const std::string& path);

// "" when |a-b| <= atol + rtol*|b| everywhere (NaN matches NaN), else a one-line description.
std::string compare(const std::vector<float>& got, const std::vector<float>& want, double rtol, double atol);

}  // namespace nn::onnx_test
