// A check of serialized protobuf before it is parsed: every nested length fits inside what holds it.
#pragma once
#include <cstdint>
#include <string>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/zero_copy_stream.h>

namespace nn::formats {

// Walks `size` bytes of a serialized `type` message from `in` (submessages by their descriptors, unknown fields
// skipped) and throws nn::Error (kInvalid) naming `label`, the field and its byte offset when a length-delimited
// field (a submessage, string or bytes) claims more bytes than the message holding it has left. Protobuf's parser
// reserves memory for a claimed string length before it finds the bytes missing (up to 50 MB for a 23-byte file);
// after this check no claim exceeds the real data. Malformed data it cannot walk is left to the parser to refuse.
void check_nested_lengths(google::protobuf::io::ZeroCopyInputStream* in, int64_t size,
                          const google::protobuf::Descriptor* type, const std::string& label);

}  // namespace nn::formats
