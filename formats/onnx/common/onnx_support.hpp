// Queries about ONNX support for function_info and convert: the operators the importer reads.
#pragma once
#include <string>
#include <vector>

namespace nn::formats::onnx {

// "Op@since-until" for every import rule (ONNX default domain), sorted by operator name.
std::vector<std::string> onnx_importable_operators();

}  // namespace nn::formats::onnx
