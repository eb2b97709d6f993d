// Raw binary, .npy and text arrays.
#include "array_io.hpp"

#include <cstring>
#include <filesystem>
#include <map>

#include "formats/common/atomic_file.hpp"
#include "nn/core/error.hpp"
#include "nn/core/half.hpp"
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

// Element decoder for a NumPy descr such as '<f4' or '|u1' (little-endian or byte-sized only).
struct NpyType {
  size_t size = 0;
  void (*convert)(const char*, int64_t, float*) = nullptr;
};

void convert_half(const char* src, int64_t n, float* dst) {
  for (int64_t i = 0; i < n; ++i) {
    uint16_t bits;
    std::memcpy(&bits, src + 2 * i, 2);
    dst[i] = nn::half_to_float(bits);
  }
}

NpyType npy_type(const std::string& descr, const std::string& file) {
  static const std::map<std::string, NpyType> kTypes = {
      {"b1", {1, convert_from<uint8_t>}}, {"u1", {1, convert_from<uint8_t>}},
      {"i1", {1, convert_from<int8_t>}},  {"u2", {2, convert_from<uint16_t>}},
      {"i2", {2, convert_from<int16_t>}}, {"u4", {4, convert_from<uint32_t>}},
      {"i4", {4, convert_from<int32_t>}}, {"u8", {8, convert_from<uint64_t>}},
      {"i8", {8, convert_from<int64_t>}}, {"f2", {2, convert_half}},
      {"f4", {4, convert_from<float>}},   {"f8", {8, convert_from<double>}},
  };
  NN_CHECK(descr.size() == 3 && (descr[0] == '<' || descr[0] == '|' || descr[0] == '='))
      << single_quoted(file) << ": unsupported .npy dtype '" << descr << "' (only little-endian numbers)";
  auto it = kTypes.find(descr.substr(1));
  NN_CHECK(it != kTypes.end()) << single_quoted(file) << ": unsupported .npy dtype '" << descr << "'";
  return it->second;
}

// The value text after 'key': in the header dict ("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3),
// }").
std::string header_value(const std::string& header, const std::string& key, const std::string& file) {
  size_t pos = header.find("'" + key + "'");
  NN_CHECK(pos != std::string::npos) << single_quoted(file) << ": .npy header lacks '" << key << "'";
  pos = header.find(':', pos);
  NN_CHECK(pos != std::string::npos) << single_quoted(file) << ": malformed .npy header";
  ++pos;
  while (pos < header.size() && header[pos] == ' ') ++pos;
  size_t end = pos;
  if (pos < header.size() && header[pos] == '(') {
    end = header.find(')', pos);
    NN_CHECK(end != std::string::npos) << single_quoted(file) << ": malformed shape in .npy header";
    return header.substr(pos + 1, end - pos - 1);
  }
  if (pos < header.size() && header[pos] == '\'') {
    end = header.find('\'', pos + 1);
    NN_CHECK(end != std::string::npos) << single_quoted(file) << ": malformed .npy header";
    return header.substr(pos + 1, end - pos - 1);
  }
  end = header.find_first_of(",}", pos);
  return header.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
}

nn::Shape parse_shape_tuple(const std::string& text, const std::string& file) {
  nn::Shape shape;
  size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == ',')) ++pos;
    if (pos >= text.size()) break;
    size_t end = pos;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    NN_CHECK(end > pos && end - pos <= 15)
        << single_quoted(file) << ": malformed shape (" << text << ") in .npy header";
    shape.push_back(std::stoll(text.substr(pos, end - pos)));
    pos = end;
    while (pos < text.size() && text[pos] == 'L') ++pos;  // Python 2 longs
  }
  return shape;
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
  NN_CHECK(size == want) << single_quoted(path) << ": " << size << " bytes, but " << what << " needs "
                         << expected << " " << nn::dtype_name(dtype) << " values = " << want << " bytes";
  std::string bytes = nn::formats::read_file(path, want);
  std::vector<float> values(static_cast<size_t>(expected));
  switch (dtype) {
    case nn::DType::kUInt8:
      convert_from<uint8_t>(bytes.data(), expected, values.data());
      break;
    case nn::DType::kInt32:
      convert_from<int32_t>(bytes.data(), expected, values.data());
      break;
    default:
      convert_from<float>(bytes.data(), expected, values.data());
      break;
  }
  return values;
}

HostArray parse_npy(std::string_view bytes, const std::string& file) {
  NN_CHECK(bytes.size() >= 10 && bytes.substr(0, 6) == std::string_view("\x93NUMPY", 6))
      << single_quoted(file) << ": not a .npy file (bad magic)";
  const int major = uint8_t(bytes[6]);
  NN_CHECK(major >= 1 && major <= 3) << single_quoted(file) << ": unsupported .npy version " << major;
  size_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = uint8_t(bytes[8]) | (size_t(uint8_t(bytes[9])) << 8);
    offset = 10;
  } else {
    NN_CHECK(bytes.size() >= 12) << single_quoted(file) << ": truncated .npy header";
    for (int i = 0; i < 4; ++i) header_len |= size_t(uint8_t(bytes[8 + i])) << (8 * i);
    offset = 12;
  }
  NN_CHECK(offset + header_len <= bytes.size()) << single_quoted(file) << ": truncated .npy header";
  const std::string header(bytes.substr(offset, header_len));
  const std::string order = header_value(header, "fortran_order", file);
  NN_CHECK(order.rfind("False", 0) == 0)
      << single_quoted(file) << ": Fortran-order .npy arrays are not supported";
  NpyType type = npy_type(header_value(header, "descr", file), file);
  HostArray out;
  out.shape = parse_shape_tuple(header_value(header, "shape", file), file);
  nn::check_shape(out.shape, single_quoted(file));
  const int64_t n = nn::shape_size(out.shape);
  const size_t data_offset = offset + header_len;
  NN_CHECK(bytes.size() - data_offset == size_t(n) * type.size)
      << single_quoted(file) << ": .npy data is " << bytes.size() - data_offset << " bytes, shape "
      << nn::to_string(out.shape) << " needs " << size_t(n) * type.size;
  out.values.resize(size_t(n));
  type.convert(bytes.data() + data_offset, n, out.values.data());
  return out;
}

HostArray read_npy(const std::string& path) { return parse_npy(nn::formats::read_file(path), path); }

std::string npy_image(const nn::Shape& shape, const std::vector<float>& values) {
  // nn::to_string prints shapes as Python tuples: (2, 3), (5,), ().
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + nn::to_string(shape) + ", }";
  // Pad with spaces so that magic + length + header + '\n' is a multiple of 64 bytes.
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  return out;
}

std::string text_image(const nn::Shape& shape, const std::vector<float>& values) {
  std::string out = nn::to_string(shape) + "\n";
  for (float v : values) out += shortest_float(v) + "\n";
  return out;
}

}  // namespace nncli
