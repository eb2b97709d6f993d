// Graph inputs of an ONNX file from a wire-format walk: ModelProto.graph (7) -> GraphProto.input (11) and the
// names (8) of GraphProto.initializer (5); every other field is skipped by its length.
#include "formats/onnx/common/onnx_graph_inputs.hpp"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <limits>
#include <set>

#include "formats/common/atomic_file.hpp"
#include "nn/core/error.hpp"
#include "onnx/onnx_pb.h"

namespace nn::formats::onnx {

namespace {
using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

constexpr int kModelGraph = 7, kGraphInitializer = 5, kGraphInput = 11, kTensorName = 8;

bool is_field(uint32_t tag, int number) {
  return WireFormatLite::GetTagFieldNumber(tag) == number &&
         WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
}

// Calls `walk` inside the length-delimited field just read; false when the data is malformed.
template <class F>
bool inside(CodedInputStream& in, F&& walk) {
  uint32_t length = 0;
  if (!in.ReadVarint32(&length)) return false;
  const auto limit = in.PushLimit(int(length));
  const bool ok = walk() && in.ConsumedEntireMessage();
  in.PopLimit(limit);
  return ok;
}

bool read_tensor_name(CodedInputStream& in, std::string& name) {
  while (uint32_t tag = in.ReadTag()) {
    if (is_field(tag, kTensorName)) {
      if (!WireFormatLite::ReadString(&in, &name)) return false;
    } else if (!WireFormatLite::SkipField(&in, tag)) {
      return false;
    }
  }
  return true;
}

bool read_graph(CodedInputStream& in, std::vector<::onnx::ValueInfoProto>& inputs,
                std::set<std::string>& initializers) {
  while (uint32_t tag = in.ReadTag()) {
    if (is_field(tag, kGraphInput)) {
      std::string bytes;
      if (!WireFormatLite::ReadBytes(&in, &bytes) || !inputs.emplace_back().ParseFromString(bytes)) return false;
    } else if (is_field(tag, kGraphInitializer)) {
      std::string name;
      if (!inside(in, [&] { return read_tensor_name(in, name); })) return false;
      initializers.insert(name);
    } else if (!WireFormatLite::SkipField(&in, tag)) {
      return false;
    }
  }
  return true;
}
}  // namespace

std::optional<std::vector<GraphInput>> read_graph_inputs(const std::string& path) {
  std::vector<::onnx::ValueInfoProto> infos;
  std::set<std::string> initializers;
  try {
    ReadableFile file(path);
    google::protobuf::io::FileInputStream stream(file.fd());
    CodedInputStream in(&stream);
    // No claimed length reaches past the file's real size (protobuf sizes its string buffers by the limit); one
    // byte beyond it, as reaching the limit itself counts as a message cut short.
    in.SetTotalBytesLimit(int(std::min<uint64_t>(file.size() + 1, uint64_t(std::numeric_limits<int>::max()))));
    while (uint32_t tag = in.ReadTag()) {
      const bool ok = is_field(tag, kModelGraph) ? inside(in, [&] { return read_graph(in, infos, initializers); })
                                                 : WireFormatLite::SkipField(&in, tag);
      if (!ok) return std::nullopt;
    }
    if (!in.ConsumedEntireMessage()) return std::nullopt;
  } catch (const Error&) {
    return std::nullopt;
  }
  std::vector<GraphInput> inputs;
  for (const auto& info : infos) {
    if (initializers.count(info.name()) || !info.type().has_tensor_type()) continue;
    GraphInput& input = inputs.emplace_back();
    input.name = info.name();
    for (const auto& d : info.type().tensor_type().shape().dim()) {
      input.dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
      input.dim_names.push_back(d.has_dim_param() ? d.dim_param() : "");
    }
  }
  return inputs;
}

bool has_free_dims(const std::vector<GraphInput>& inputs) {
  for (const auto& input : inputs)
    for (int64_t d : input.dims)
      if (d < 0) return true;
  return false;
}

}  // namespace nn::formats::onnx
