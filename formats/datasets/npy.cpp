// NPY record reading (little/big endian numeric dtypes, C or Fortran order) and writing.
#include "formats/datasets/npy.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "nn/core/error.hpp"
#include "nn/core/half.hpp"

namespace nn::formats::datasets {

namespace {

// The value of 'key' in the header dict text, e.g. "'<f4'" or "(100, 64, 1)".
std::string header_field(const std::string& header, const std::string& key, const std::string& name) {
  size_t k = header.find("'" + key + "'");
  NN_CHECK(k != std::string::npos) << "'" << name << "': NPY header lacks '" << key << "'";
  const size_t colon = header.find(':', k);
  const size_t start = colon == std::string::npos ? colon : header.find_first_not_of(' ', colon + 1);
  NN_CHECK(start != std::string::npos) << "'" << name << "': NPY header has no value for '" << key << "'";
  size_t end = start;
  if (header[start] == '(') {
    end = header.find(')', start) + 1;
  } else if (header[start] == '\'' || header[start] == '"') {
    end = header.find(header[start], start + 1) + 1;
  } else {
    end = header.find_first_of(",}", start);
  }
  NN_CHECK(end != std::string::npos && end > start) << "'" << name << "': malformed NPY header";
  return header.substr(start, end - start);
}

template <class T>
double load_as(const char* p, bool swap) {
  char buf[sizeof(T)];
  std::memcpy(buf, p, sizeof(T));
  if (swap) std::reverse(buf, buf + sizeof(T));
  T v;
  std::memcpy(&v, buf, sizeof(T));
  return double(v);
}

// Appends `values` converted to T in the host's (little-endian) byte order.
template <class T>
void append_values(std::string& out, const std::vector<double>& values) {
  const size_t start = out.size();
  out.resize(start + values.size() * sizeof(T));
  char* dst = out.data() + start;
  for (size_t i = 0; i < values.size(); ++i) {
    const T v = T(values[i]);
    std::memcpy(dst + i * sizeof(T), &v, sizeof(T));
  }
}

}  // namespace

NpyArray read_npy(std::string_view bytes, size_t& offset, const std::string& name) {
  NN_CHECK(bytes.size() >= offset + 10 && bytes.substr(offset, 6) == "\x93NUMPY")
      << "'" << name << "': not an NPY record at byte " << offset;
  uint8_t major = uint8_t(bytes[offset + 6]);
  NN_CHECK(major >= 1 && major <= 3) << "'" << name << "': unsupported NPY version " << int(major);
  size_t header_len, header_start;
  if (major == 1) {
    header_len = uint8_t(bytes[offset + 8]) | (size_t(uint8_t(bytes[offset + 9])) << 8);
    header_start = offset + 10;
  } else {
    NN_CHECK(bytes.size() >= offset + 12) << "'" << name << "': truncated NPY header";
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= size_t(uint8_t(bytes[offset + 8 + i])) << (8 * i);
    header_start = offset + 12;
  }
  NN_CHECK(bytes.size() >= header_start + header_len) << "'" << name << "': truncated NPY header";
  std::string header(bytes.substr(header_start, header_len));
  NpyArray array;
  std::string descr = header_field(header, "descr", name);
  NN_CHECK(descr.size() >= 2 && (descr[0] == '\'' || descr[0] == '"'))
      << "'" << name << "': bad NPY dtype '" << descr << "'";
  array.descr = descr.substr(1, descr.size() - 2);
  const std::string order_text = header_field(header, "fortran_order", name);
  NN_CHECK(order_text == "True" || order_text == "False")
      << "'" << name << "': bad NPY fortran_order '" << order_text << "'";
  bool fortran = order_text == "True";
  std::string shape_text = header_field(header, "shape", name);
  NN_CHECK(shape_text.size() >= 2 && shape_text.front() == '(' && shape_text.back() == ')')
      << "'" << name << "': bad NPY shape '" << shape_text << "' (expected a tuple)";
  for (size_t i = 1; i < shape_text.size();) {
    size_t j = shape_text.find_first_of(",)", i);
    std::string dim = shape_text.substr(i, j - i);
    if (dim.find_first_not_of(' ') != std::string::npos) {
      const size_t start = dim.find_first_not_of(' '), end = dim.find_last_not_of(' ') + 1;
      int64_t d = -1;
      const auto [stop, ec] = std::from_chars(dim.data() + start, dim.data() + end, d);
      NN_CHECK(ec == std::errc() && stop == dim.data() + end && d >= 0)
          << "'" << name << "': bad NPY shape '" << shape_text << "'";
      array.shape.push_back(d);
    }
    if (j == std::string::npos) break;  // no closing ')': npos + 1 would restart the scan at 0, forever
    i = j + 1;
  }
  check_shape(array.shape, "'" + name + "': NPY shape");
  NN_CHECK(array.descr.size() >= 3) << "'" << name << "': unsupported NPY dtype '" << array.descr << "'";
  char order = array.descr[0];
  NN_CHECK(order == '<' || order == '>' || order == '|' || order == '=')
      << "'" << name << "': unsupported NPY dtype '" << array.descr << "'";
  char kind = array.descr[1];
  int size = 0;
  const auto [size_end, size_ec] =
      std::from_chars(array.descr.data() + 2, array.descr.data() + array.descr.size(), size);
  NN_CHECK(size_ec == std::errc() && size_end == array.descr.data() + array.descr.size() && size > 0 && size <= 16)
      << "'" << name << "': unsupported NPY dtype '" << array.descr << "'";
  bool swap = order == '>';
  int64_t count = shape_size(array.shape);
  size_t data_start = header_start + header_len;
  NN_CHECK(data_start <= bytes.size() && uint64_t(count) <= (bytes.size() - data_start) / uint64_t(size))
      << "'" << name << "': NPY data shorter than its shape " << to_string(array.shape);
  array.values.resize(size_t(count));
  const char* p = bytes.data() + data_start;
  for (int64_t i = 0; i < count; ++i, p += size) {
    double v;
    if (kind == 'f' && size == 2)
      v = half_to_float(uint16_t(load_as<uint16_t>(p, swap)));
    else if (kind == 'f' && size == 4)
      v = load_as<float>(p, swap);
    else if (kind == 'f' && size == 8)
      v = load_as<double>(p, swap);
    else if (kind == 'u' && size == 1)
      v = load_as<uint8_t>(p, false);
    else if (kind == 'b' && size == 1)
      v = load_as<uint8_t>(p, false);
    else if (kind == 'u' && size == 2)
      v = load_as<uint16_t>(p, swap);
    else if (kind == 'u' && size == 4)
      v = load_as<uint32_t>(p, swap);
    else if (kind == 'u' && size == 8)
      v = double(load_as<uint64_t>(p, swap));
    else if (kind == 'i' && size == 1)
      v = load_as<int8_t>(p, false);
    else if (kind == 'i' && size == 2)
      v = load_as<int16_t>(p, swap);
    else if (kind == 'i' && size == 4)
      v = load_as<int32_t>(p, swap);
    else if (kind == 'i' && size == 8)
      v = double(load_as<int64_t>(p, swap));
    else
      NN_FAIL(ErrorCode::kInvalid) << "'" << name << "': unsupported NPY dtype '" << array.descr << "'";
    array.values[size_t(i)] = v;
  }
  if (fortran && array.shape.size() > 1) {
    std::vector<double> c_order(array.values.size());
    Shape strides = shape_strides(array.shape);
    std::vector<int64_t> idx(array.shape.size(), 0);
    for (size_t f = 0; f < c_order.size(); ++f) {
      int64_t c = 0;
      for (size_t d = 0; d < idx.size(); ++d) c += idx[d] * strides[d];
      c_order[size_t(c)] = array.values[f];
      for (size_t d = 0; d < idx.size() && ++idx[d] == array.shape[d]; ++d) idx[d] = 0;
    }
    array.values = std::move(c_order);
  }
  offset = data_start + size_t(count) * size;
  return array;
}

NpyArray read_npy_file(std::string_view bytes, const std::string& name) {
  size_t offset = 0;
  NpyArray array = read_npy(bytes, offset, name);
  NN_CHECK(offset == bytes.size()) << "'" << name << "': " << bytes.size() - offset
                                   << " bytes after the NPY data of shape " << to_string(array.shape);
  return array;
}

std::string npy_record(const std::string& descr, const Shape& shape, const std::vector<double>& values) {
  std::string shape_text = "(";
  for (size_t i = 0; i < shape.size(); ++i) shape_text += (i ? ", " : "") + std::to_string(shape[i]);
  shape_text += shape.size() == 1 ? ",)" : ")";
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape_text + ", }";
  size_t total = 10 + header.size() + 1;
  header += std::string((64 - total % 64) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  out += char(header.size() & 0xff);
  out += char((header.size() >> 8) & 0xff);
  out += header;
  if (descr == "<f4")
    append_values<float>(out, values);
  else if (descr == "<f8")
    append_values<double>(out, values);
  else if (descr == "|u1")
    append_values<uint8_t>(out, values);
  else if (descr == "<u2")
    append_values<uint16_t>(out, values);
  else
    NN_FAIL(ErrorCode::kInternal) << "npy_record: unsupported dtype '" << descr << "'";
  return out;
}

}  // namespace nn::formats::datasets
