// Raw binary, .npy and text arrays.
#include "common/array_io.hpp"

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "formats/common/atomic_file.hpp"
#include "formats/datasets/npy.hpp"
#include "nn/core/error.hpp"
#include "common/py_format.hpp"

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
  if (name == "int8") return nn::DType::kInt8;
  if (name == "int32") return nn::DType::kInt32;
  NN_FAIL(nn::ErrorCode::kUsage) << "unsupported data type '" << name << "' (use float32, uint8, int8 or int32)";
}

HostArray read_raw_array(const std::string& path, nn::DType dtype, int64_t expected, const std::string& what) {
  const uint64_t element = nn::dtype_size(dtype);
  const uint64_t want = uint64_t(expected) * element;
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  NN_CHECK(!ec) << single_quoted(path) << ": cannot open: " << ec.message();
  NN_CHECK(size == want) << single_quoted(path) << ": " << size << " bytes, but " << what << " needs " << expected
                         << " " << nn::dtype_name(dtype) << " values = " << want << " bytes";
  std::string bytes = nn::formats::read_file(path, want);
  HostArray a{{}, std::vector<float>(static_cast<size_t>(expected)), ElementKind::kInteger, nn::dtype_name(dtype)};
  switch (dtype) {
    case nn::DType::kUInt8: convert_from<uint8_t>(bytes.data(), expected, a.values.data()); break;
    case nn::DType::kInt8: convert_from<int8_t>(bytes.data(), expected, a.values.data()); break;
    case nn::DType::kInt32: convert_from<int32_t>(bytes.data(), expected, a.values.data()); break;
    default:
      convert_from<float>(bytes.data(), expected, a.values.data());
      a.kind = ElementKind::kReal;
      break;
  }
  return a;
}

HostArray read_npy(const std::string& path) {
  nn::formats::datasets::NpyArray array = nn::formats::datasets::read_npy_file(nn::formats::read_file(path), path);
  // descr: byte order, kind letter, bytes per element ("<f4", "|u1", "|b1")
  const char letter = array.descr.size() > 1 ? array.descr[1] : '?';
  const std::string bits = array.descr.size() > 2 ? std::to_string(8 * std::atoi(array.descr.c_str() + 2)) : "";
  HostArray a{array.shape, std::vector<float>(array.values.begin(), array.values.end()), ElementKind::kOther,
              "bool"};
  if (letter == 'f') a.kind = ElementKind::kReal, a.type = "float" + bits;
  if (letter == 'i') a.kind = ElementKind::kInteger, a.type = "int" + bits;
  if (letter == 'u') a.kind = ElementKind::kInteger, a.type = "uint" + bits;
  return a;
}

std::string text_image(const nn::Shape& shape, const std::vector<float>& values) {
  std::string out = nn::to_string(shape) + "\n";
  for (float v : values) out += shortest_float(v) + "\n";
  return out;
}

}  // namespace nncli
