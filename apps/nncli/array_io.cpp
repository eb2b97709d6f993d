// Raw binary, .npy and text arrays.
#include "array_io.hpp"

#include <cstring>
#include <filesystem>

#include "formats/common/atomic_file.hpp"
#include "formats/datasets/npy.hpp"
#include "nn/core/error.hpp"
#include "py_format.hpp"

namespace nncli {

namespace {

std::string single_quoted(const std::string& s) { return "'" + s + "'"; }

template <class T>
void convert_from(const char* src, int64_t n, float* dst) {
  for (int64_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, src + i * int64_t(sizeof(T)), sizeof(T));
    dst[i] = float(v);
  }
}

}  // namespace

nn::DType parse_input_dtype(const std::string& name) {
  if (name == "float32") return nn::DType::kFloat32;
  if (name == "uint8") return nn::DType::kUInt8;
  if (name == "int32") return nn::DType::kInt32;
  NN_FAIL(nn::ErrorCode::kUsage) << "unsupported data type '" << name << "' (use float32, uint8 or int32)";
}

std::vector<float> read_raw_array(const std::string& path, nn::DType dtype, int64_t expected,
                                  const std::string& what) {
  const uint64_t element = nn::dtype_size(dtype);
  const uint64_t want = uint64_t(expected) * element;
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  NN_CHECK(!ec) << single_quoted(path) << ": cannot open: " << ec.message();
  NN_CHECK(size == want) << single_quoted(path) << ": " << size << " bytes, but " << what << " needs " << expected
                         << " " << nn::dtype_name(dtype) << " values = " << want << " bytes";
  std::string bytes = nn::formats::read_file(path, want);
  std::vector<float> values(static_cast<size_t>(expected));
  switch (dtype) {
    case nn::DType::kUInt8: convert_from<uint8_t>(bytes.data(), expected, values.data()); break;
    case nn::DType::kInt32: convert_from<int32_t>(bytes.data(), expected, values.data()); break;
    default: convert_from<float>(bytes.data(), expected, values.data()); break;
  }
  return values;
}

HostArray read_npy(const std::string& path) {
  nn::formats::datasets::NpyArray array = nn::formats::datasets::read_npy_file(nn::formats::read_file(path), path);
  return {array.shape, std::vector<float>(array.values.begin(), array.values.end())};
}

std::string text_image(const nn::Shape& shape, const std::vector<float>& values) {
  std::string out = nn::to_string(shape) + "\n";
  for (float v : values) out += shortest_float(v) + "\n";
  return out;
}

}  // namespace nncli
