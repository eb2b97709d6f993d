// Arrays in files: raw little-endian binaries (nnabla's infer inputs/outputs), .npy (read with
// formats/datasets/npy.hpp), and plain text.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/core/dtype.hpp"
#include "nn/core/shape.hpp"

namespace nncli {

// What the numbers of an input file stand for: real values (float arrays), integers, or neither (bool).
enum class ElementKind { kReal, kInteger, kOther };

struct HostArray {
  nn::Shape shape;
  std::vector<float> values;
  ElementKind kind = ElementKind::kReal;
  std::string type = "float32";  // the element type in the file, for messages
};

// "float32", "uint8", "int8", "int32" -> dtype; anything else throws a usage error naming the value.
nn::DType parse_input_dtype(const std::string& name);

// A raw headerless little-endian file of `dtype` holding exactly `expected` elements, as float32 (shape empty).
// Wrong size -> nn::Error naming the file, its size and the expected size (for `what`).
HostArray read_raw_array(const std::string& path, nn::DType dtype, int64_t expected, const std::string& what);

// A whole NumPy .npy file (formats/datasets/npy.hpp: read_npy_file) converted to float32, with its element kind.
HostArray read_npy(const std::string& path);

// Text: the shape as a Python tuple on the first line, then one shortest-repr value per line.
std::string text_image(const nn::Shape& shape, const std::vector<float>& values);

}  // namespace nncli
