// Protobuf text and binary parsing with clear errors.
#include "formats/nnp/proto_text.hpp"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <climits>

#include "formats/common/proto_bounds.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::nnp {

namespace {

// Keeps the first error the text parser reports (later ones are usually consequences of it).
class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string& message) override {
    if (has_error) return;
    has_error = true;
    this->line = line;
    this->column = column;
    this->message = message;
  }
  bool has_error = false;
  int line = 0;
  int column = 0;
  std::string message;
};

// Protobuf reports an unknown field at the token after its name; move the column back to the name.
int unknown_field_column(std::string_view text, int line, int column, const std::string& message) {
  const std::string marker = "has no field named \"";
  size_t at = message.find(marker);
  if (at == std::string::npos) return column;
  size_t start = at + marker.size();
  size_t end = message.find('"', start);
  if (end == std::string::npos) return column;
  const std::string name = message.substr(start, end - start);
  size_t line_start = 0;
  for (int l = 0; l < line && line_start != std::string_view::npos; ++l) {
    line_start = text.find('\n', line_start);
    if (line_start != std::string_view::npos) ++line_start;
  }
  if (line_start == std::string_view::npos) return column;
  std::string_view row = text.substr(line_start, text.find('\n', line_start) - line_start);
  size_t pos = row.substr(0, std::min(row.size(), size_t(column) + name.size())).rfind(name);
  return pos == std::string_view::npos ? column : int(pos);
}

}  // namespace

void merge_text(std::string_view text, const std::string& display_name, google::protobuf::Message* msg) {
  NN_CHECK(text.size() < size_t(INT_MAX)) << "'" << display_name << "': text is too large to parse";
  FirstErrorCollector errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  google::protobuf::io::ArrayInputStream input(text.data(), int(text.size()));
  bool ok = parser.Merge(&input, msg);
  if (ok) return;
  if (errors.has_error) {
    const int column = unknown_field_column(text, errors.line, errors.column, errors.message);
    NN_FAIL(ErrorCode::kInvalid) << "'" << display_name << "':" << errors.line + 1 << ":" << column + 1 << ": "
                                 << errors.message;
  }
  NN_FAIL(ErrorCode::kInvalid) << "'" << display_name << "': cannot parse the text";
}

std::string print_text(const google::protobuf::Message& msg) {
  google::protobuf::TextFormat::Printer printer;
  printer.SetUseShortRepeatedPrimitives(false);
  std::string out;
  NN_CHECK(printer.PrintToString(msg, &out)) << "cannot print " << msg.GetTypeName() << " as text";
  return out;
}

void merge_binary(std::string_view bytes, const std::string& display_name, google::protobuf::Message* msg) {
  NN_CHECK(bytes.size() < size_t(INT_MAX)) << "'" << display_name << "': data is too large to parse";
  google::protobuf::io::ArrayInputStream scan(bytes.data(), int(bytes.size()));
  check_nested_lengths(&scan, int64_t(bytes.size()), msg->GetDescriptor(), "'" + display_name + "'");
  google::protobuf::io::CodedInputStream input(reinterpret_cast<const uint8_t*>(bytes.data()), int(bytes.size()));
  input.SetTotalBytesLimit(INT_MAX);
  NN_CHECK(msg->MergeFromCodedStream(&input) && input.ConsumedEntireMessage())
      << "'" << display_name << "': not a valid binary " << msg->GetDescriptor()->name()
      << " (truncated or corrupt protobuf data)";
}

}  // namespace nn::formats::nnp
