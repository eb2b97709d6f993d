// Network, variable, function and parameter conversion between NNablaProtoBuf and ir.
#include <google/protobuf/descriptor.h>

#include "formats/nnp/proto_convert.hpp"
#include "formats/nnp/reflect_attrs.hpp"
#include "nn/core/error.hpp"
#include "nn/ir/function_label.hpp"
#include "nnabla.pb.h"

namespace nn::formats::nnp {

namespace {

template <class Repeated>
std::vector<std::string> strings_of(const Repeated& r) {
  return std::vector<std::string>(r.begin(), r.end());
}

Shape shape_of(const nnabla::Shape& s) { return Shape(s.dim().begin(), s.dim().end()); }

void shape_to_proto(const Shape& shape, nnabla::Shape* proto) {
  proto->clear_dim();
  for (int64_t d : shape) proto->add_dim(d);
}

}  // namespace

void check_variable_shape(const Shape& shape, const std::string& what) {
  int64_t count = 1;
  for (int64_t d : shape) {
    NN_CHECK(d >= -1) << what << ": negative dimension " << d << " in shape " << to_string(shape)
                      << " (only -1, the batch dimension, is allowed)";
    int64_t n = d < 0 ? 1 : d;
    NN_CHECK(n <= kMaxVariableElements && (n == 0 || count <= kMaxVariableElements / n))
        << what << ": shape " << to_string(shape) << " is too large (more than 2^34 elements)";
    count *= n;
  }
}

ir::Context proto_to_context(const nnabla::Context& proto) {
  ir::Context c;
  c.backends = strings_of(proto.backends());
  c.array_class = proto.array_class();
  c.device_id = proto.device_id();
  c.backend = proto.backend();
  c.compute_backend = proto.compute_backend();
  return c;
}

void context_to_proto(const ir::Context& c, nnabla::Context* proto) {
  for (const auto& b : c.backends) proto->add_backends(b);
  proto->set_array_class(c.array_class);
  proto->set_device_id(c.device_id);
  proto->set_backend(c.backend);
  proto->set_compute_backend(c.compute_backend);
}

ir::Parameter proto_to_parameter(const nnabla::Parameter& proto) {
  ir::Parameter p;
  p.name = proto.variable_name();
  p.shape = shape_of(proto.shape());
  p.need_grad = proto.need_grad();
  const std::string what = "parameter '" + p.name + "'";
  check_shape(p.shape, what);
  NN_CHECK(shape_size(p.shape) == proto.data_size())
      << what << ": shape " << to_string(p.shape) << " needs " << shape_size(p.shape)
      << " values but the file has " << proto.data_size();
  p.data.assign(proto.data().begin(), proto.data().end());
  return p;
}

void parameter_to_proto(const ir::Parameter& p, nnabla::Parameter* proto) {
  NN_CHECK(shape_size(p.shape) == int64_t(p.data.size()))
      << "parameter '" << p.name << "': shape " << to_string(p.shape) << " does not match its " << p.data.size()
      << " values";
  proto->set_variable_name(p.name);
  shape_to_proto(p.shape, proto->mutable_shape());
  proto->mutable_data()->Add(p.data.begin(), p.data.end());
  proto->set_need_grad(p.need_grad);
}

namespace {

ir::Variable proto_to_variable(const nnabla::Variable& proto) {
  ir::Variable v;
  v.name = proto.name();
  v.type = proto.type();
  v.repeat_id = strings_of(proto.repeat_id());
  v.shape = shape_of(proto.shape());
  check_variable_shape(v.shape, "variable '" + v.name + "'");
  if (proto.has_initializer()) {
    v.initializer.type = proto.initializer().type();
    v.initializer.multiplier = proto.initializer().multiplier();
  }
  return v;
}

void variable_to_proto(const ir::Variable& v, nnabla::Variable* proto) {
  proto->set_name(v.name);
  proto->set_type(v.type);
  for (const auto& r : v.repeat_id) proto->add_repeat_id(r);
  if (!v.shape.empty()) shape_to_proto(v.shape, proto->mutable_shape());  // absent, as upstream leaves it
  if (!v.initializer.type.empty() || v.initializer.multiplier != 0.0) {
    proto->mutable_initializer()->set_type(v.initializer.type);
    proto->mutable_initializer()->set_multiplier(float(v.initializer.multiplier));
  }
}

ir::Function proto_to_function(const nnabla::Function& proto) {
  ir::Function f;
  f.name = proto.name();
  f.type = proto.type();
  f.repeat_id = strings_of(proto.repeat_id());
  if (proto.has_context()) f.context = proto_to_context(proto.context());
  f.inputs = strings_of(proto.input());
  f.outputs = strings_of(proto.output());
  if (proto.has_repeat_param())
    f.repeat_param = ir::RepeatParam{proto.repeat_param().repeat_id(), proto.repeat_param().times()};
  if (proto.has_recurrent_param()) {
    const auto& r = proto.recurrent_param();
    f.recurrent_param = ir::RecurrentParam{r.repeat_id(), r.length(), r.axis()};
  }
  const auto* reflection = proto.GetReflection();
  const auto* oneof = nnabla::Function::descriptor()->FindOneofByName("parameter");
  if (const auto* field = reflection->GetOneofFieldDescriptor(proto, oneof)) {
    std::string owner = function_type_of_param_field(field);
    NN_CHECK(owner == f.type) << ir::label(f) << ": has '" << field->name() << "', which belongs to function type "
                              << owner;
    f.has_param = true;
    f.attrs = message_to_attrs(reflection->GetMessage(proto, field));
  }
  return f;
}

void function_to_proto(const ir::Function& f, nnabla::Function* proto) {
  NN_CHECK_CODE(f.subnetworks.empty(), ErrorCode::kUnsupported)
      << ir::label(f) << ": runs graphs of its own (ONNX control flow), which an NNP file cannot hold";
  proto->set_name(f.name);
  proto->set_type(f.type);
  for (const auto& r : f.repeat_id) proto->add_repeat_id(r);
  if (f.context) context_to_proto(*f.context, proto->mutable_context());
  for (const auto& i : f.inputs) proto->add_input(i);
  for (const auto& o : f.outputs) proto->add_output(o);
  if (f.repeat_param) {
    proto->mutable_repeat_param()->set_repeat_id(f.repeat_param->repeat_id);
    proto->mutable_repeat_param()->set_times(f.repeat_param->times);
  }
  if (f.recurrent_param) {
    auto* r = proto->mutable_recurrent_param();
    r->set_repeat_id(f.recurrent_param->repeat_id);
    r->set_length(f.recurrent_param->length);
    r->set_axis(f.recurrent_param->axis);
  }
  if (!f.has_param && f.attrs.empty()) return;
  const auto* field = function_param_field(f.type);
  if (!field) {
    NN_CHECK_CODE(f.attrs.empty(), ErrorCode::kUnsupported)
        << ir::label(f) << ": this function type takes no arguments in an NNP file, but "
        << f.attrs.values().begin()->first << " is set";
    return;
  }
  auto* msg = proto->GetReflection()->MutableMessage(proto, field);
  attrs_to_message(f.attrs, msg, ir::label(f));
}

}  // namespace

ir::Network proto_to_network(const nnabla::Network& proto) {
  ir::Network n;
  n.name = proto.name();
  return with_context("network '" + n.name + "'", [&] {
    n.batch_size = proto.batch_size();
    for (const auto& r : proto.repeat_info()) n.repeat_info.push_back({r.id(), r.times()});
    n.variables.reserve(size_t(proto.variable_size()));
    for (const auto& v : proto.variable()) n.variables.push_back(proto_to_variable(v));
    n.functions.reserve(size_t(proto.function_size()));
    for (const auto& f : proto.function()) n.functions.push_back(proto_to_function(f));
    return n;
  });
}

void network_to_proto(const ir::Network& n, nnabla::Network* proto) {
  with_context("network '" + n.name + "'", [&] {
    proto->set_name(n.name);
    proto->set_batch_size(n.batch_size);
    for (const auto& r : n.repeat_info) {
      auto* info = proto->add_repeat_info();
      info->set_id(r.id);
      info->set_times(r.times);
    }
    for (const auto& v : n.variables) variable_to_proto(v, proto->add_variable());
    for (const auto& f : n.functions) function_to_proto(f, proto->add_function());
  });
}

}  // namespace nn::formats::nnp
