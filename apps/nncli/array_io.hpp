// Arrays in files: raw little-endian binaries (nnabla's infer inputs/outputs), .npy (read with
// formats/datasets/npy.hpp), and plain text.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/core/dtype.hpp"
#include "nn/core/shape.hpp"

namespace nncli {

struct HostArray {
  nn::Shape shape;
  std::vector<float> values;
};

// "float32", "uint8", "int32" -> dtype; anything else throws a usage error naming the value.
nn::DType parse_input_dtype(const std::string& name);

// A raw headerless little-endian file of `dtype` holding exactly `expected` elements, as float32.
// Wrong size -> nn::Error naming the file, its size and the expected size (for `what`).
std::vector<float> read_raw_array(const std::string& path, nn::DType dtype, int64_t expected,
                                  const std::string& what);

// A whole NumPy .npy file (formats/datasets/npy.hpp: read_npy_file) converted to float32.
HostArray read_npy(const std::string& path);

// Text: the shape as a Python tuple on the first line, then one shortest-repr value per line.
std::string text_image(const nn::Shape& shape, const std::vector<float>& values);

}  // namespace nncli
