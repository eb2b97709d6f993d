// `dump -v`: a reflection walk over the model's protobuf, printed as nnabla_cli's converter does.
#include "dump/dump_proto.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <vector>

#include "formats/nnp/proto_convert.hpp"
#include "nnabla.pb.h"
#include "common/py_format.hpp"

namespace nncli {

namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ":" : "") + parts[i];
  return out;
}

// Python's len(x[:limit]).
int sliced_count(int size, int limit) {
  const int end = limit >= 0 ? std::min(limit, size) : std::max(size + limit, 0);
  return end;
}

// str() of a scalar as Python prints protobuf values (bools True/False, floats by repr).
std::string scalar_text(const Message& m, const FieldDescriptor* f, int index) {
  const Reflection* r = m.GetReflection();
  const bool rep = f->is_repeated();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return std::to_string(rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f));
    case FieldDescriptor::CPPTYPE_INT64:
      return std::to_string(rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f));
    case FieldDescriptor::CPPTYPE_UINT32:
      return std::to_string(rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f));
    case FieldDescriptor::CPPTYPE_UINT64:
      return std::to_string(rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f));
    case FieldDescriptor::CPPTYPE_FLOAT:
      return py_float_repr(double(rep ? r->GetRepeatedFloat(m, f, index) : r->GetFloat(m, f)));
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return py_float_repr(rep ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f));
    case FieldDescriptor::CPPTYPE_BOOL:
      return (rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f)) ? "True" : "False";
    case FieldDescriptor::CPPTYPE_ENUM:
      return std::to_string(rep ? r->GetRepeatedEnumValue(m, f, index) : r->GetEnumValue(m, f));
    case FieldDescriptor::CPPTYPE_STRING: return rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f);
    default: return "";
  }
}

void walk(const Message& m, const std::vector<std::string>& prefix, int limit, std::string& out) {
  const Reflection* r = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(m, &fields);  // set fields in field-number order, as Python's ListFields()
  const std::string where = join(prefix);
  for (const FieldDescriptor* f : fields) {
    const bool message = f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
    if (!f->is_repeated()) {
      if (message) {
        std::vector<std::string> next = prefix;
        next.push_back(f->name());
        walk(r->GetMessage(m, f), next, limit, out);
      } else {
        out += where + ":" + f->name() + ": " + scalar_text(m, f, 0) + "\n";
      }
      continue;
    }
    const int size = r->FieldSize(m, f);
    out += where + " has " + std::to_string(size) + " " + f->name() + "(s).\n";
    const int shown = sliced_count(size, limit);
    for (int n = 0; n < shown; ++n) {
      const std::string item = f->name() + "[" + std::to_string(n) + "]";
      if (message) {
        std::vector<std::string> next = prefix;
        next.push_back(item);
        walk(r->GetRepeatedMessage(m, f, n), next, limit, out);
      } else {
        out += where + ":" + item + ": " + scalar_text(m, f, n) + "\n";
      }
    }
  }
}

}  // namespace

std::string dump_proto_fields(const nn::ir::Model& model, const std::string& root, int limit) {
  nnabla::NNablaProtoBuf proto = nn::formats::nnp::model_to_proto(model);
  std::string out;
  walk(proto, {root}, limit, out);
  return out;
}

}  // namespace nncli
