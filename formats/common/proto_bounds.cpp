// check_nested_lengths: a walk of protobuf's wire format with a limit per nested message.
#include "formats/common/proto_bounds.hpp"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <string>

#include "nn/core/error.hpp"

namespace nn::formats {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

constexpr int kMaxDepth = 100;  // protobuf's own recursion limit

std::string field_name(const Descriptor* type, const FieldDescriptor* field, uint32_t number) {
  const std::string name = field ? "'" + field->name() + "'" : std::to_string(number);
  return "field " + name + (type ? " of " + type->name() : std::string(" of a group"));
}

// Walks one message (`type` null: unknown to the descriptors) up to its limit, or a group up to its end tag
// (`group` its field number). Only length-delimited fields look at the descriptors: fixed and varint fields
// are skipped as they come (a LeNet parameter file holds 63,000 unpacked floats). False where the data cannot be
// walked (the parser then refuses it with its own message).
bool walk(CodedInputStream& in, const Descriptor* type, int depth, const std::string& label, uint32_t group) {
  if (depth > kMaxDepth) return false;
  while (const uint32_t tag = in.ReadTag()) {
    const uint32_t number = WireFormatLite::GetTagFieldNumber(tag);
    switch (WireFormatLite::GetTagWireType(tag)) {
      case WireFormatLite::WIRETYPE_END_GROUP: return group != 0 && number == group;
      case WireFormatLite::WIRETYPE_START_GROUP:
        if (!walk(in, nullptr, depth + 1, label, number)) return false;
        continue;
      case WireFormatLite::WIRETYPE_LENGTH_DELIMITED: break;
      default:
        if (!WireFormatLite::SkipField(&in, tag)) return false;
        continue;
    }
    const int offset = in.CurrentPosition();
    uint32_t length = 0;
    if (!in.ReadVarint32(&length)) return false;
    const int left = in.BytesUntilLimit();
    const FieldDescriptor* field = type ? type->FindFieldByNumber(int(number)) : nullptr;
    NN_CHECK(left >= 0 && length <= uint32_t(left))
        << label << ": " << field_name(type, field, number) << " at byte " << offset << " claims " << length
        << " bytes, but only " << left << " are left (truncated or corrupt protobuf data)";
    if (!field || field->type() != FieldDescriptor::TYPE_MESSAGE) {
      if (!in.Skip(int(length))) return false;
      continue;
    }
    const CodedInputStream::Limit limit = in.PushLimit(int(length));
    if (!walk(in, field->message_type(), depth + 1, label, 0) || in.BytesUntilLimit() != 0) return false;
    in.PopLimit(limit);
  }
  return group == 0;
}

}  // namespace

void check_nested_lengths(google::protobuf::io::ZeroCopyInputStream* in, int64_t size, const Descriptor* type,
                          const std::string& label) {
  if (size < 0 || size > INT32_MAX) return;  // the caller refuses sizes protobuf cannot read
  CodedInputStream coded(in);
  coded.SetTotalBytesLimit(INT32_MAX);
  coded.PushLimit(int(size));
  walk(coded, type, 0, label, 0);
}

}  // namespace nn::formats
