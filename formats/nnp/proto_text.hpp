// Protobuf text format for NNablaProtoBuf: parsing with file:line:col errors, upstream-style printing.
#pragma once
#include <google/protobuf/message.h>

#include <string>
#include <string_view>

namespace nn::formats::nnp {

// Merges text into msg (repeated fields append, scalars overwrite). On a syntax error or an unknown
// field throws nn::Error "'<display_name>':LINE:COL: <problem>" with 1-based line and column.
void merge_text(std::string_view text, const std::string& display_name, google::protobuf::Message* msg);

// Upstream layout: fields in number order, 2-space indent, one field per line, C-escaped strings.
std::string print_text(const google::protobuf::Message& msg);

// Binary wire format; throws nn::Error naming display_name when the bytes do not parse.
void merge_binary(std::string_view bytes, const std::string& display_name, google::protobuf::Message* msg);

}  // namespace nn::formats::nnp
