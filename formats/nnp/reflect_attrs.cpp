// Protobuf reflection <-> nn::Attrs.
#include "formats/nnp/reflect_attrs.hpp"

#include <cmath>
#include <map>

#include "nn/core/error.hpp"
#include "nnabla.pb.h"

namespace nn::formats::nnp {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

namespace {

bool is_shape(const FieldDescriptor* f) {
  return f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE && f->message_type() == nnabla::Shape::descriptor();
}
bool is_communicator(const FieldDescriptor* f) {
  return f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE &&
         f->message_type() == nnabla::Communicator::descriptor();
}

}  // namespace

AttrType attr_type_of(const FieldDescriptor* f) {
  if (is_shape(f)) return AttrType::kShape;
  if (is_communicator(f)) return AttrType::kCommunicator;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT64:
    case FieldDescriptor::CPPTYPE_INT32:
    case FieldDescriptor::CPPTYPE_UINT32:
    case FieldDescriptor::CPPTYPE_UINT64: return f->is_repeated() ? AttrType::kInts : AttrType::kInt;
    case FieldDescriptor::CPPTYPE_FLOAT: return f->is_repeated() ? AttrType::kFloats : AttrType::kFloat;
    case FieldDescriptor::CPPTYPE_DOUBLE: return f->is_repeated() ? AttrType::kFloats : AttrType::kDouble;
    case FieldDescriptor::CPPTYPE_BOOL: return AttrType::kBool;
    case FieldDescriptor::CPPTYPE_STRING: return AttrType::kString;
    default: break;
  }
  NN_FAIL(ErrorCode::kInternal) << "field '" << f->full_name() << "' has no attribute type";
}

bool has_attr_type(const FieldDescriptor* f) {
  return f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE || is_shape(f) || is_communicator(f);
}

Attrs message_to_attrs(const Message& msg) {
  Attrs attrs;
  const Reflection* r = msg.GetReflection();
  const auto* d = msg.GetDescriptor();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (!has_attr_type(f)) continue;  // e.g. CustomSchedulerParameter's variable lists
    switch (attr_type_of(f)) {
      case AttrType::kCommunicator: break;
      case AttrType::kShape: {
        const auto& shape = static_cast<const nnabla::Shape&>(r->GetMessage(msg, f));
        attrs.set(f->name(), std::vector<int64_t>(shape.dim().begin(), shape.dim().end()));
        break;
      }
      case AttrType::kInt:
        if (f->cpp_type() == FieldDescriptor::CPPTYPE_INT64)
          attrs.set(f->name(), int64_t(r->GetInt64(msg, f)));
        else if (f->cpp_type() == FieldDescriptor::CPPTYPE_INT32)
          attrs.set(f->name(), int64_t(r->GetInt32(msg, f)));
        else if (f->cpp_type() == FieldDescriptor::CPPTYPE_UINT32)
          attrs.set(f->name(), int64_t(r->GetUInt32(msg, f)));
        else
          attrs.set(f->name(), int64_t(r->GetUInt64(msg, f)));
        break;
      case AttrType::kFloat: attrs.set(f->name(), double(r->GetFloat(msg, f))); break;
      case AttrType::kDouble: attrs.set(f->name(), r->GetDouble(msg, f)); break;
      case AttrType::kBool: attrs.set(f->name(), r->GetBool(msg, f)); break;
      case AttrType::kString: attrs.set(f->name(), r->GetString(msg, f)); break;
      case AttrType::kInts: {
        std::vector<int64_t> v;
        int n = r->FieldSize(msg, f);
        for (int k = 0; k < n; ++k) v.push_back(r->GetRepeatedInt64(msg, f, k));
        attrs.set(f->name(), std::move(v));
        break;
      }
      case AttrType::kFloats: {
        std::vector<double> v;
        int n = r->FieldSize(msg, f);
        for (int k = 0; k < n; ++k)
          v.push_back(f->cpp_type() == FieldDescriptor::CPPTYPE_FLOAT ? double(r->GetRepeatedFloat(msg, f, k))
                                                                      : r->GetRepeatedDouble(msg, f, k));
        attrs.set(f->name(), std::move(v));
        break;
      }
    }
  }
  return attrs;
}

namespace {

[[noreturn]] void bad_value(const std::string& where, const FieldDescriptor* f, const AttrValue& v) {
  NN_FAIL(ErrorCode::kInvalid) << where << ": argument '" << f->name() << "' should be "
                               << attr_type_name(attr_type_of(f)) << ", got " << attr_to_string(v);
}

int64_t as_int(const std::string& where, const FieldDescriptor* f, const AttrValue& v) {
  if (auto p = std::get_if<int64_t>(&v)) return *p;
  if (auto p = std::get_if<bool>(&v)) return *p ? 1 : 0;
  if (auto p = std::get_if<double>(&v); p && std::floor(*p) == *p && std::fabs(*p) < 9.0e18) return int64_t(*p);
  bad_value(where, f, v);
}

double as_double(const std::string& where, const FieldDescriptor* f, const AttrValue& v) {
  if (auto p = std::get_if<double>(&v)) return *p;
  if (auto p = std::get_if<int64_t>(&v)) return double(*p);
  bad_value(where, f, v);
}

std::vector<int64_t> as_ints(const std::string& where, const FieldDescriptor* f, const AttrValue& v) {
  if (auto p = std::get_if<std::vector<int64_t>>(&v)) return *p;
  if (auto p = std::get_if<std::vector<double>>(&v); p && p->empty()) return {};
  bad_value(where, f, v);
}

std::vector<double> as_doubles(const std::string& where, const FieldDescriptor* f, const AttrValue& v) {
  if (auto p = std::get_if<std::vector<double>>(&v)) return *p;
  if (auto p = std::get_if<std::vector<int64_t>>(&v)) return std::vector<double>(p->begin(), p->end());
  bad_value(where, f, v);
}

void set_field(Message* msg, const FieldDescriptor* f, const AttrValue& v, const std::string& where) {
  const Reflection* r = msg->GetReflection();
  switch (attr_type_of(f)) {
    case AttrType::kCommunicator: r->MutableMessage(msg, f); break;
    case AttrType::kShape: {
      // An empty Shape stays absent, as upstream writers leave it (proto3 reads both the same).
      std::vector<int64_t> dims = as_ints(where, f, v);
      r->ClearField(msg, f);
      if (dims.empty()) break;
      auto* shape = static_cast<nnabla::Shape*>(r->MutableMessage(msg, f));
      for (int64_t d : dims) shape->add_dim(d);
      break;
    }
    case AttrType::kInt: {
      int64_t x = as_int(where, f, v);
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_INT64)
        r->SetInt64(msg, f, x);
      else if (f->cpp_type() == FieldDescriptor::CPPTYPE_INT32)
        r->SetInt32(msg, f, int32_t(x));
      else if (f->cpp_type() == FieldDescriptor::CPPTYPE_UINT32)
        r->SetUInt32(msg, f, uint32_t(x));
      else
        r->SetUInt64(msg, f, uint64_t(x));
      break;
    }
    case AttrType::kFloat: r->SetFloat(msg, f, float(as_double(where, f, v))); break;
    case AttrType::kDouble: r->SetDouble(msg, f, as_double(where, f, v)); break;
    case AttrType::kBool: {
      if (auto p = std::get_if<bool>(&v))
        r->SetBool(msg, f, *p);
      else if (auto q = std::get_if<int64_t>(&v); q && (*q == 0 || *q == 1))
        r->SetBool(msg, f, *q == 1);
      else
        bad_value(where, f, v);
      break;
    }
    case AttrType::kString: {
      auto p = std::get_if<std::string>(&v);
      if (!p) bad_value(where, f, v);
      r->SetString(msg, f, *p);
      break;
    }
    case AttrType::kInts:
      r->ClearField(msg, f);
      for (int64_t x : as_ints(where, f, v)) r->AddInt64(msg, f, x);
      break;
    case AttrType::kFloats:
      r->ClearField(msg, f);
      for (double x : as_doubles(where, f, v)) {
        if (f->cpp_type() == FieldDescriptor::CPPTYPE_FLOAT)
          r->AddFloat(msg, f, float(x));
        else
          r->AddDouble(msg, f, x);
      }
      break;
  }
}

}  // namespace

void attrs_to_message(const Attrs& attrs, Message* msg, const std::string& where) {
  const auto* d = msg->GetDescriptor();
  for (const auto& [name, value] : attrs.values()) {
    const FieldDescriptor* f = d->FindFieldByName(name);
    NN_CHECK(f) << where << ": unknown argument '" << name << "' (" << d->name() << " has no such field)";
    NN_CHECK(has_attr_type(f)) << where << ": field '" << name << "' cannot be set from an attribute";
    set_field(msg, f, value, where);
  }
}

namespace {

struct FunctionParamIndex {
  std::map<std::string, const FieldDescriptor*> by_type;
  std::vector<std::string> types;  // field-number order
};

const FunctionParamIndex& function_param_index() {
  static const FunctionParamIndex index = [] {
    FunctionParamIndex idx;
    const auto* oneof = nnabla::Function::descriptor()->FindOneofByName("parameter");
    for (int i = 0; i < oneof->field_count(); ++i) {
      const FieldDescriptor* f = oneof->field(i);
      std::string type = function_type_of_param_field(f);
      idx.by_type[type] = f;
      idx.types.push_back(type);
    }
    return idx;
  }();
  return index;
}

}  // namespace

std::string function_type_of_param_field(const FieldDescriptor* field) {
  static const std::string kSuffix = "Parameter";
  std::string name = field->message_type()->name();  // e.g. ConvolutionParameter
  NN_INTERNAL_CHECK(name.size() > kSuffix.size() &&
                    name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
      << name;
  return name.substr(0, name.size() - kSuffix.size());
}

const FieldDescriptor* function_param_field(const std::string& function_type) {
  const auto& idx = function_param_index();
  auto it = idx.by_type.find(function_type);
  return it == idx.by_type.end() ? nullptr : it->second;
}

std::vector<ArgumentInfo> function_arguments(const std::string& function_type) {
  std::vector<ArgumentInfo> args;
  const FieldDescriptor* f = function_param_field(function_type);
  if (!f) return args;
  const auto* d = f->message_type();
  for (int i = 0; i < d->field_count(); ++i) args.push_back({d->field(i)->name(), attr_type_of(d->field(i))});
  return args;
}

std::vector<std::string> function_types_with_parameters() { return function_param_index().types; }

}  // namespace nn::formats::nnp
