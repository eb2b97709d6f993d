// Solver conversion between NNablaProtoBuf and ir: the solver oneof and schedulers by reflection.
#include <google/protobuf/descriptor.h>

#include <algorithm>
#include <cctype>

#include "formats/nnp/proto_convert.hpp"
#include "formats/nnp/reflect_attrs.hpp"
#include "nn/core/error.hpp"
#include "nnabla.pb.h"

namespace nn::formats::nnp {

using google::protobuf::FieldDescriptor;

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

const google::protobuf::OneofDescriptor* solver_oneof() {
  return nnabla::Solver::descriptor()->FindOneofByName("parameter");
}

bool is_scheduler_field(const FieldDescriptor* f) {
  const std::string& n = f->name();
  const std::string suffix = "_scheduler_param";
  return n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0 &&
         n != "linear_warmup_scheduler_param";
}

// The oneof member for a solver type: its message is "<Type>Parameter" (case-insensitive, so "SGD" works).
const FieldDescriptor* solver_param_field_for_type(const std::string& type) {
  const auto* oneof = solver_oneof();
  for (int i = 0; i < oneof->field_count(); ++i)
    if (lower(oneof->field(i)->message_type()->name()) == lower(type) + "parameter") return oneof->field(i);
  return nullptr;
}

ir::SolverState proto_to_state(const nnabla::SolverState& proto, const std::string& param) {
  ir::SolverState s;
  s.t = proto.t();
  for (const auto& [name, sp] : proto.state_parameter()) {
    ir::SolverStateParameter p;
    p.shape.assign(sp.shape().dim().begin(), sp.shape().dim().end());
    const std::string what = "solver state '" + name + "' of parameter '" + param + "'";
    check_shape(p.shape, what);
    NN_CHECK(shape_size(p.shape) == sp.data_size()) << what << ": shape " << to_string(p.shape) << " needs "
                                                    << shape_size(p.shape) << " values but has " << sp.data_size();
    p.data.assign(sp.data().begin(), sp.data().end());
    s.state_parameter.emplace(name, std::move(p));
  }
  return s;
}

}  // namespace

ir::Solver proto_to_solver(const nnabla::Solver& proto) {
  ir::Solver s;
  s.type = proto.type();
  if (proto.has_context()) s.context = proto_to_context(proto.context());
  s.weight_decay = proto.weight_decay();
  s.lr_decay = proto.lr_decay();
  s.lr_decay_interval = proto.lr_decay_interval();
  for (const auto& [param, state] : proto.states()) s.states.emplace(param, proto_to_state(state, param));
  const auto* reflection = proto.GetReflection();
  if (const auto* field = reflection->GetOneofFieldDescriptor(proto, solver_oneof())) {
    s.param_name = field->name();
    s.params = message_to_attrs(reflection->GetMessage(proto, field));
  }
  s.lr_scheduler_type = proto.lr_scheduler_type();
  // The scheduler parameter named by lr_scheduler_type, else the first one present.
  const auto* d = nnabla::Solver::descriptor();
  const FieldDescriptor* scheduler = d->FindFieldByName(lower(s.lr_scheduler_type) + "_scheduler_param");
  if (!scheduler || !is_scheduler_field(scheduler) || !reflection->HasField(proto, scheduler)) {
    scheduler = nullptr;
    for (int i = 0; i < d->field_count() && !scheduler; ++i)
      if (is_scheduler_field(d->field(i)) && reflection->HasField(proto, d->field(i))) scheduler = d->field(i);
  }
  if (scheduler) {
    s.lr_scheduler_param_name = scheduler->name();
    s.lr_scheduler_params = message_to_attrs(reflection->GetMessage(proto, scheduler));
  }
  s.lr_warmup_scheduler_type = proto.lr_warmup_scheduler_type();
  s.warmup_iter = proto.linear_warmup_scheduler_param().warmup_iter();
  return s;
}

void solver_to_proto(const ir::Solver& s, bool with_states, nnabla::Solver* proto) {
  const std::string where = "solver '" + s.type + "'";
  proto->set_type(s.type);
  if (s.context) context_to_proto(*s.context, proto->mutable_context());
  proto->set_weight_decay(float(s.weight_decay));
  proto->set_lr_decay(float(s.lr_decay));
  proto->set_lr_decay_interval(s.lr_decay_interval);
  if (with_states) {
    for (const auto& [param, state] : s.states) {
      nnabla::SolverState& out = (*proto->mutable_states())[param];
      out.set_t(state.t);
      for (const auto& [name, sp] : state.state_parameter) {
        NN_CHECK(shape_size(sp.shape) == int64_t(sp.data.size()))
            << where << ": state '" << name << "' of '" << param << "' does not match its shape";
        nnabla::SolverStateParameter& p = (*out.mutable_state_parameter())[name];
        for (int64_t dim : sp.shape) p.mutable_shape()->add_dim(dim);
        p.mutable_data()->Add(sp.data.begin(), sp.data.end());
      }
    }
  }
  const auto* reflection = proto->GetReflection();
  const auto* d = nnabla::Solver::descriptor();
  if (!s.param_name.empty() || !s.params.empty()) {
    const FieldDescriptor* field =
        s.param_name.empty() ? solver_param_field_for_type(s.type) : d->FindFieldByName(s.param_name);
    NN_CHECK(field && field->containing_oneof() == solver_oneof())
        << where << ": unknown solver parameter message '" << s.param_name << "'";
    attrs_to_message(s.params, reflection->MutableMessage(proto, field), where);
  }
  proto->set_lr_scheduler_type(s.lr_scheduler_type);
  if (!s.lr_scheduler_param_name.empty()) {
    const FieldDescriptor* field = d->FindFieldByName(s.lr_scheduler_param_name);
    NN_CHECK(field && is_scheduler_field(field))
        << where << ": unknown learning-rate scheduler parameter '" << s.lr_scheduler_param_name << "'";
    attrs_to_message(s.lr_scheduler_params, reflection->MutableMessage(proto, field), where);
  }
  proto->set_lr_warmup_scheduler_type(s.lr_warmup_scheduler_type);
  if (s.warmup_iter != 0) proto->mutable_linear_warmup_scheduler_param()->set_warmup_iter(s.warmup_iter);
}

}  // namespace nn::formats::nnp
