// Protobuf reflection <-> nn::Attrs: function <snake>_param messages, solver and scheduler parameters.
#pragma once
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <string>
#include <vector>

#include "nn/ops/attributes.hpp"

namespace nn::formats::nnp {

// Whether a field maps to an attribute (scalars, repeated scalars, Shape, Communicator).
bool has_attr_type(const google::protobuf::FieldDescriptor* field);
// The attribute type a parameter-message field carries (int64 -> kInt, Shape -> kShape, ...).
AttrType attr_type_of(const google::protobuf::FieldDescriptor* field);

// Every field of msg, including proto3 zero values, as Attrs keyed by field name. Communicator
// fields and fields of other message types are skipped.
Attrs message_to_attrs(const google::protobuf::Message& msg);

// Sets msg's fields from attrs by name; converts int/float/bool where lossless. Throws nn::Error
// naming the argument when attrs has a name the message lacks or a value of the wrong kind.
void attrs_to_message(const Attrs& attrs, google::protobuf::Message* msg, const std::string& where);

// The Function.parameter oneof field for a function type ("Convolution" -> convolution_param), or
// nullptr when the type has no parameter message. Built from the descriptors, not a list.
const google::protobuf::FieldDescriptor* function_param_field(const std::string& function_type);
// The function type a oneof field belongs to (convolution_param -> "Convolution").
std::string function_type_of_param_field(const google::protobuf::FieldDescriptor* field);

struct ArgumentInfo {
  std::string name;
  AttrType type;
};
// Arguments of a function type in declaration order (empty when it has no parameter message).
std::vector<ArgumentInfo> function_arguments(const std::string& function_type);
// Every function type that has a parameter message, in field-number order.
std::vector<std::string> function_types_with_parameters();

}  // namespace nn::formats::nnp
