// TFLite file reader: verify, unpack with the object API, then check what the verifier cannot know.
#include "formats/tflite/tflite_reader.hpp"

#include <set>

#include "formats/common/atomic_file.hpp"
#include "formats/tflite/tflite_graph.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nn::formats::tflite_io {

size_t element_size(tflite::TensorType type) {
  switch (type) {
    case tflite::TensorType_FLOAT32:
    case tflite::TensorType_INT32: return 4;
    case tflite::TensorType_INT64: return 8;
    case tflite::TensorType_UINT8:
    case tflite::TensorType_INT8:
    case tflite::TensorType_BOOL: return 1;
    case tflite::TensorType_INT16:
    case tflite::TensorType_FLOAT16: return 2;
    default: return 0;
  }
}

namespace {

constexpr size_t kMaxTfliteBytes = size_t(2) << 30;  // FlatBuffers offsets are 32-bit

// TOCO wrote rank-1 per-channel int32 biases with another tensor's quantized_dimension (3 in tflite-micro's
// person_detect): one scale per element of the only axis is per-channel on axis 0, as TFLite Micro reads it.
void repair_toco_bias_axis(tflite::TensorT& t) {
  auto& q = *t.quantization;
  if (t.shape.size() != 1 || q.quantized_dimension == 0 || int64_t(q.scale.size()) != t.shape[0]) return;
  NN_LOG_VERBOSE << "tensor '" << t.name << "': " << q.scale.size() << " scales on its only axis, but "
                 << "quantized_dimension " << q.quantized_dimension << " (as TOCO wrote biases): read on axis 0";
  q.quantized_dimension = 0;
}

void check_model(tflite::ModelT& m) {
  NN_CHECK(m.version == 3) << "schema version " << m.version << " is not supported (3 is)";
  NN_CHECK(!m.subgraphs.empty()) << "the model has no subgraph";
  NN_CHECK_CODE(m.subgraphs.size() == 1, ErrorCode::kUnsupported)
      << "models with " << m.subgraphs.size() << " subgraphs (control flow) are not supported";
  tflite::SubGraphT& g = *m.subgraphs[0];
  const size_t nt = g.tensors.size();
  for (size_t i = 0; i < nt; ++i) {
    tflite::TensorT& t = *g.tensors[i];
    NN_CHECK(t.buffer < m.buffers.size())
        << "tensor " << i << " '" << t.name << "' names buffer " << t.buffer << " of " << m.buffers.size();
    int64_t count = 1;
    for (int32_t d : t.shape) {
      NN_CHECK(d >= 0) << "tensor " << i << " '" << t.name << "' has a negative dimension " << d;
      count *= d;
      NN_CHECK(count <= (int64_t(1) << 32)) << "tensor " << i << " '" << t.name << "' is absurdly large";
    }
    const tflite::BufferT& b = *m.buffers[t.buffer];
    NN_CHECK_CODE(b.offset == 0 && b.size == 0, ErrorCode::kUnsupported)
        << "tensor '" << t.name << "': buffers stored outside the FlatBuffer (offset/size) are not supported";
    if (!b.data.empty()) {
      const size_t es = element_size(t.type);
      NN_CHECK_CODE(es != 0, ErrorCode::kUnsupported)
          << "tensor '" << t.name << "': type " << tflite::EnumNameTensorType(t.type) << " is not supported";
      NN_CHECK(b.data.size() == size_t(count) * es) << "tensor " << i << " '" << t.name << "' has shape (" <<
          [&] {
            std::string s;
            for (int32_t d : t.shape) s += (s.empty() ? "" : ", ") + std::to_string(d);
            return s;
          }() << ") but its buffer holds " << b.data.size()
                                                    << " bytes";
    }
    if (t.quantization) {
      const auto& q = *t.quantization;
      NN_CHECK(q.zero_point.empty() || q.zero_point.size() == q.scale.size())
          << "tensor '" << t.name << "': " << q.scale.size() << " scales but " << q.zero_point.size()
          << " zero points";
      if (q.scale.size() > 1) {
        repair_toco_bias_axis(t);
        NN_CHECK(q.quantized_dimension >= 0 && size_t(q.quantized_dimension) < t.shape.size() &&
                 int64_t(q.scale.size()) == t.shape[size_t(q.quantized_dimension)])
            << "tensor '" << t.name << "': " << q.scale.size() << " scales do not match quantized_dimension "
            << q.quantized_dimension;
      }
    }
  }
  auto check_index = [&](int32_t index, const std::string& what) {
    NN_CHECK(index >= -1 && index < int32_t(nt)) << what << " names tensor " << index << " of " << nt;
  };
  for (int32_t i : g.inputs) check_index(i, "a subgraph input");
  for (int32_t i : g.outputs) check_index(i, "a subgraph output");
  std::set<std::string> unknown;
  for (size_t k = 0; k < g.operators.size(); ++k) {
    const tflite::OperatorT& op = *g.operators[k];
    NN_CHECK(op.opcode_index < m.operator_codes.size())
        << "operator " << k << " names operator code " << op.opcode_index << " of " << m.operator_codes.size();
    for (int32_t i : op.inputs) check_index(i, "operator " + std::to_string(k));
    for (int32_t i : op.outputs) check_index(i, "operator " + std::to_string(k));
  }
  for (const auto& oc : m.operator_codes) {
    int32_t code = std::max<int32_t>(oc->builtin_code, oc->deprecated_builtin_code);
    if (code == int32_t(BuiltinOp::CUSTOM)) {
      unknown.insert("custom operator '" + oc->custom_code + "'");
    } else if (builtin_op_name(code)[0] == '\0') {
      unknown.insert("builtin operator " + std::to_string(code));
    }
  }
  if (!unknown.empty()) {
    std::string list;
    for (const auto& u : unknown) list += (list.empty() ? "" : ", ") + u;
    NN_FAIL(ErrorCode::kUnsupported) << unknown.size() << " operator(s) are not supported: " << list;
  }
}

}  // namespace

std::unique_ptr<tflite::ModelT> parse_tflite(const std::string& bytes) {
  NN_CHECK(bytes.size() >= 8) << "too short for a TFLite file (" << bytes.size() << " bytes)";
  NN_CHECK(bytes.size() < kMaxTfliteBytes) << "too large for a FlatBuffer (" << bytes.size() << " bytes)";
  NN_CHECK(flatbuffers::BufferHasIdentifier(bytes.data(), tflite::ModelIdentifier()))
      << "not a TFLite file (no TFL3 identifier)";
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), 64, 10'000'000);
  NN_CHECK(tflite::VerifyModelBuffer(verifier))
      << "the FlatBuffer is malformed (truncated file, or offsets outside it)";
  auto model = std::unique_ptr<tflite::ModelT>(tflite::GetModel(bytes.data())->UnPack());
  check_model(*model);
  return model;
}

std::string read_file_bytes(const std::string& path) { return read_file(path, kMaxTfliteBytes); }

std::unique_ptr<tflite::ModelT> read_tflite(const std::string& path) {
  return parse_tflite(read_file(path, kMaxTfliteBytes));
}

}  // namespace nn::formats::tflite_io
