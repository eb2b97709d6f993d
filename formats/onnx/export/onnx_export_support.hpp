// The nnabla functions the ONNX exporter can write at an opset (for function_info -f ONNX).
#pragma once
#include <string>
#include <vector>

namespace nn::formats {

// Sorted nnabla function types exportable at `opset` (6..17; the table of the largest of 6/7/9/10/11/13/14/17 <=
// it).
std::vector<std::string> onnx_exportable_functions(int opset);

}  // namespace nn::formats
