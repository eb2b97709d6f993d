// ONNX protobuf loading, opset checks and tensor conversion.
#include "formats/onnx/common/onnx_model_file.hpp"

#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "formats/common/atomic_file.hpp"
#include "formats/common/contained_path.hpp"
#include "formats/common/proto_bounds.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      exponent = 127 - 15 + 1;
      while (!(mantissa & 0x400u)) {
        mantissa <<= 1;
        --exponent;
      }
      bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
    }
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

size_t element_bytes(int32_t t) {
  switch (t) {
    case ::onnx::TensorProto::FLOAT:
    case ::onnx::TensorProto::INT32:
    case ::onnx::TensorProto::UINT32: return 4;
    case ::onnx::TensorProto::DOUBLE:
    case ::onnx::TensorProto::INT64:
    case ::onnx::TensorProto::UINT64: return 8;
    case ::onnx::TensorProto::INT16:
    case ::onnx::TensorProto::UINT16:
    case ::onnx::TensorProto::FLOAT16:
    case ::onnx::TensorProto::BFLOAT16: return 2;
    case ::onnx::TensorProto::INT8:
    case ::onnx::TensorProto::UINT8:
    case ::onnx::TensorProto::BOOL: return 1;
    default: return 0;
  }
}

bool is_integer_type(int32_t t) {
  return t != ::onnx::TensorProto::FLOAT && t != ::onnx::TensorProto::DOUBLE &&
         t != ::onnx::TensorProto::FLOAT16 && t != ::onnx::TensorProto::BFLOAT16;
}

// One element of little-endian raw bytes as double (exact for every integer type up to 2^53).
double raw_element(const char* p, int32_t t, int64_t* as_int) {
  auto load = [&](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  switch (t) {
    case ::onnx::TensorProto::FLOAT: return load(float());
    case ::onnx::TensorProto::DOUBLE: return load(double());
    case ::onnx::TensorProto::FLOAT16: return half_to_float(load(uint16_t()));
    case ::onnx::TensorProto::BFLOAT16: {
      uint32_t bits = uint32_t(load(uint16_t())) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    case ::onnx::TensorProto::INT8: *as_int = load(int8_t()); break;
    case ::onnx::TensorProto::UINT8: *as_int = load(uint8_t()); break;
    case ::onnx::TensorProto::BOOL: *as_int = load(uint8_t()) != 0; break;
    case ::onnx::TensorProto::INT16: *as_int = load(int16_t()); break;
    case ::onnx::TensorProto::UINT16: *as_int = load(uint16_t()); break;
    case ::onnx::TensorProto::INT32: *as_int = load(int32_t()); break;
    case ::onnx::TensorProto::UINT32: *as_int = load(uint32_t()); break;
    case ::onnx::TensorProto::INT64: *as_int = load(int64_t()); break;
    case ::onnx::TensorProto::UINT64: *as_int = int64_t(load(uint64_t())); break;
    default: break;
  }
  return double(*as_int);
}

// A non-negative decimal integer of an external_data entry; anything else is refused.
uint64_t external_number(const ::onnx::TensorProto& tensor, const std::string& key, const std::string& value) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  NN_CHECK(ec == std::errc() && end == value.data() + value.size() && !value.empty())
      << "tensor " << quoted(tensor.name()) << ": external data " << key << " " << quoted(value)
      << " is not a non-negative integer";
  NN_CHECK(v <= uint64_t(INT64_MAX)) << "tensor " << quoted(tensor.name()) << ": external data " << key << " "
                                     << value << " is too large";
  return v;
}

// Bytes of a tensor stored beside the model: only regular files inside the model's folder are read.
std::string read_external(const ::onnx::TensorProto& tensor, const std::string& base_dir) {
  std::string location;
  uint64_t offset = 0;
  int64_t length = -1;
  for (const auto& entry : tensor.external_data()) {
    if (entry.key() == "location") location = entry.value();
    if (entry.key() == "offset") offset = external_number(tensor, "offset", entry.value());
    if (entry.key() == "length") length = int64_t(external_number(tensor, "length", entry.value()));
  }
  const std::string what = "tensor " + quoted(tensor.name()) + ": external data";
  NN_CHECK(!location.empty()) << what << " without a location";
  const std::string path = resolve_inside(base_dir, location, what);
  return read_file_range(path, offset, length, what + " file " + quoted(path));
}

}  // namespace

std::string data_type_name(int32_t t) {
  if (!::onnx::TensorProto_DataType_IsValid(t)) return "UNKNOWN(" + std::to_string(t) + ")";
  return ::onnx::TensorProto_DataType_Name(::onnx::TensorProto_DataType(t));
}

namespace {

// Protobuf reads at most 2 GiB - 1 bytes.
constexpr uint64_t kMaxProtoBytes = (uint64_t(1) << 31) - 1;

void check_parsed(bool parsed, const ::onnx::ModelProto& model, uint64_t bytes, const std::string& label) {
  NN_CHECK(parsed) << quoted(label) << ": not a valid ONNX model (malformed protobuf, " << bytes << " bytes)";
  NN_CHECK(model.has_graph()) << quoted(label) << ": the ONNX model has no graph";
  NN_CHECK(model.ir_version() <= kMaxIrVersion) << quoted(label) << ": ONNX IR version " << model.ir_version()
                                                << " is newer than the supported " << kMaxIrVersion;
}

}  // namespace

::onnx::ModelProto parse_model_proto(std::string_view bytes, const std::string& label) {
  ::onnx::ModelProto model;
  const bool readable = bytes.size() <= kMaxProtoBytes;
  if (readable) {
    google::protobuf::io::ArrayInputStream scan(bytes.data(), int(bytes.size()));
    check_nested_lengths(&scan, int64_t(bytes.size()), ::onnx::ModelProto::descriptor(), quoted(label));
  }
  const bool parsed = readable && model.ParseFromArray(bytes.data(), int(bytes.size()));
  check_parsed(parsed, model, bytes.size(), label);
  return model;
}

// Parsed as it is read, in 1 MiB blocks: the file's bytes are never held beside the model they make (a
// MobileNetV2 file's 14 MB once, not twice), after a first pass that checks the nested lengths against the
// file's size (proto_bounds.hpp; it seeks over the data).
::onnx::ModelProto load_model_proto(const std::string& path) {
  ReadableFile file(path, kMaxProtoBytes);
  {
    google::protobuf::io::FileInputStream scan(file.fd(), 1 << 16);
    check_nested_lengths(&scan, int64_t(file.size()), ::onnx::ModelProto::descriptor(), quoted(path));
  }
  NN_CHECK(::lseek(file.fd(), 0, SEEK_SET) == 0) << quoted(path) << ": cannot seek: " << std::strerror(errno);
  google::protobuf::io::FileInputStream stream(file.fd(), 1 << 20);
  ::onnx::ModelProto model;
  const bool parsed = model.ParseFromBoundedZeroCopyStream(&stream, int(file.size()));
  NN_CHECK(stream.GetErrno() == 0) << quoted(path) << ": read failed: " << std::strerror(stream.GetErrno());
  check_parsed(parsed, model, file.size(), path);
  return model;
}

int64_t default_opset(const ::onnx::ModelProto& model) {
  int64_t opset = -1;
  for (const auto& entry : model.opset_import()) {
    const std::string& domain = entry.domain();
    if (domain.empty() || domain == "ai.onnx") {
      opset = std::max(opset, int64_t(entry.version()));
    } else {
      NN_CHECK_CODE(domain == "ai.onnx.ml" || domain == "org.nnabla", ErrorCode::kUnsupported)
          << "ONNX operator set domain " << quoted(domain) << " (version " << entry.version()
          << ") is not supported";
    }
  }
  if (opset < 0) opset = 1;  // IR version 2 models without opset_import use opset 1
  NN_CHECK_CODE(opset >= kMinOpset && opset <= kMaxOpset, ErrorCode::kUnsupported)
      << "ONNX opset version is currently not supported: " << opset << " (supported: " << kMinOpset << " to "
      << kMaxOpset << ")";
  return opset;
}

TensorData read_tensor(const ::onnx::TensorProto& tensor, const std::string& base_dir) {
  TensorData out;
  out.data_type = tensor.data_type();
  for (auto d : tensor.dims()) {
    NN_CHECK(d >= 0 && d < (int64_t(1) << 31)) << "tensor " << quoted(tensor.name()) << ": invalid dim " << d;
    out.shape.push_back(d);
  }
  const int64_t count = shape_size(out.shape);
  NN_CHECK(count >= 0 && count < (int64_t(1) << 31)) << "tensor " << quoted(tensor.name()) << " is too large";
  const size_t n = size_t(count);
  const int32_t t = tensor.data_type();
  const bool integer = is_integer_type(t);
  NN_CHECK_CODE(element_bytes(t) != 0, ErrorCode::kUnsupported)
      << "tensor " << quoted(tensor.name()) << ": data type " << data_type_name(t) << " is not supported";
  // The arrays are sized only after the data is known to hold n elements (a file may declare any dims).
  auto allocate = [&] {
    out.values.resize(n);
    if (integer) out.ints.resize(n);
  };
  const bool external = tensor.data_location() == ::onnx::TensorProto::EXTERNAL;
  if (external || tensor.has_raw_data()) {
    const std::string bytes = external ? read_external(tensor, base_dir) : tensor.raw_data();
    const size_t width = element_bytes(t);
    NN_CHECK(bytes.size() == n * width) << "tensor " << quoted(tensor.name()) << ": " << bytes.size()
                                        << " bytes of data for " << n << " elements of " << data_type_name(t);
    allocate();
    for (size_t i = 0; i < n; ++i) {
      int64_t as_int = 0;
      out.values[i] = float(raw_element(bytes.data() + i * width, t, &as_int));
      if (integer) out.ints[i] = as_int;
    }
    return out;
  }
  const int got = [&] {
    switch (t) {
      case ::onnx::TensorProto::FLOAT: return tensor.float_data_size();
      case ::onnx::TensorProto::DOUBLE: return tensor.double_data_size();
      case ::onnx::TensorProto::INT64: return tensor.int64_data_size();
      case ::onnx::TensorProto::UINT32:
      case ::onnx::TensorProto::UINT64: return tensor.uint64_data_size();
      default: return tensor.int32_data_size();  // FLOAT16, INT32, INT16, INT8, UINT16, UINT8, BOOL
    }
  }();
  NN_CHECK(size_t(got) == n) << "tensor " << quoted(tensor.name()) << ": " << got << " values for " << n
                             << " elements";
  allocate();
  switch (t) {
    case ::onnx::TensorProto::FLOAT:
      for (size_t i = 0; i < n; ++i) out.values[i] = tensor.float_data(int(i));
      break;
    case ::onnx::TensorProto::DOUBLE:
      for (size_t i = 0; i < n; ++i) out.values[i] = float(tensor.double_data(int(i)));
      break;
    case ::onnx::TensorProto::INT64:
      for (size_t i = 0; i < n; ++i) out.ints[i] = tensor.int64_data(int(i));
      break;
    case ::onnx::TensorProto::UINT32:
    case ::onnx::TensorProto::UINT64:
      for (size_t i = 0; i < n; ++i) out.ints[i] = int64_t(tensor.uint64_data(int(i)));
      break;
    case ::onnx::TensorProto::FLOAT16:
      for (size_t i = 0; i < n; ++i) out.values[i] = half_to_float(uint16_t(tensor.int32_data(int(i))));
      break;
    case ::onnx::TensorProto::BFLOAT16:  // the upper 16 bits of a float
      for (size_t i = 0; i < n; ++i) {
        const uint32_t bits = uint32_t(uint16_t(tensor.int32_data(int(i)))) << 16;
        std::memcpy(&out.values[i], &bits, 4);
      }
      break;
    default:  // INT32, INT16, INT8, UINT16, UINT8, BOOL
      for (size_t i = 0; i < n; ++i) out.ints[i] = tensor.int32_data(int(i));
      break;
  }
  if (integer)
    for (size_t i = 0; i < n; ++i) out.values[i] = float(out.ints[i]);
  return out;
}

::onnx::TensorProto make_float_tensor(const std::string& name, const Shape& dims,
                                      const std::vector<float>& values) {
  ::onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(::onnx::TensorProto::FLOAT);
  for (auto d : dims) t.add_dims(d);
  t.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
  return t;
}

}  // namespace nn::formats::onnx
