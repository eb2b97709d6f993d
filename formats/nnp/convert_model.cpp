// Model-level conversion between NNablaProtoBuf and ir: configs, datasets, optimizers, monitors, executors.
#include "formats/nnp/proto_convert.hpp"
#include "nn/core/error.hpp"
#include "nnabla.pb.h"

namespace nn::formats::nnp {

namespace {

template <class Repeated>
std::vector<std::string> strings_of(const Repeated& r) {
  return std::vector<std::string>(r.begin(), r.end());
}

template <class Repeated, class Convert>
auto convert_all(const Repeated& r, Convert&& convert) {
  std::vector<decltype(convert(*r.begin()))> out;
  out.reserve(size_t(r.size()));
  for (const auto& x : r) out.push_back(convert(x));
  return out;
}

ir::DataVariable data_var(const nnabla::DataVariable& p) { return {p.variable_name(), p.data_name()}; }
ir::GeneratorVariable gen_var(const nnabla::GeneratorVariable& p) {
  return {p.variable_name(), p.type(), p.multiplier()};
}
ir::LossVariable loss_var(const nnabla::LossVariable& p) { return {p.variable_name()}; }
ir::ParameterVariable param_var(const nnabla::ParameterVariable& p) {
  return {p.variable_name(), p.learning_rate_multiplier()};
}
ir::OutputVariable out_var(const nnabla::OutputVariable& p) {
  return {p.variable_name(), p.type(), p.data_name()};
}
ir::MonitorVariable mon_var(const nnabla::MonitorVariable& p) {
  return {p.variable_name(), p.type(), p.data_name(), p.multiplier()};
}

void to_proto(const ir::DataVariable& v, nnabla::DataVariable* p) {
  p->set_variable_name(v.variable_name);
  p->set_data_name(v.data_name);
}
void to_proto(const ir::GeneratorVariable& v, nnabla::GeneratorVariable* p) {
  p->set_variable_name(v.variable_name);
  p->set_type(v.type);
  p->set_multiplier(float(v.multiplier));
}
void to_proto(const ir::LossVariable& v, nnabla::LossVariable* p) { p->set_variable_name(v.variable_name); }
void to_proto(const ir::ParameterVariable& v, nnabla::ParameterVariable* p) {
  p->set_variable_name(v.variable_name);
  p->set_learning_rate_multiplier(float(v.learning_rate_multiplier));
}
void to_proto(const ir::OutputVariable& v, nnabla::OutputVariable* p) {
  p->set_variable_name(v.variable_name);
  p->set_type(v.type);
  p->set_data_name(v.data_name);
}
void to_proto(const ir::MonitorVariable& v, nnabla::MonitorVariable* p) {
  p->set_variable_name(v.variable_name);
  p->set_type(v.type);
  p->set_data_name(v.data_name);
  p->set_multiplier(float(v.multiplier));
}

template <class T, class Adder>
void add_all(const std::vector<T>& items, Adder&& add) {
  for (const auto& x : items) to_proto(x, add());
}

ir::Dataset proto_to_dataset(const nnabla::Dataset& p) {
  ir::Dataset d;
  d.name = p.name();
  d.type = p.type();
  d.uri = p.uri();
  d.batch_size = p.batch_size();
  d.cache_dir = p.cache_dir();
  d.overwrite_cache = p.overwrite_cache();
  d.create_cache_explicitly = p.create_cache_explicitly();
  d.shuffle = p.shuffle();
  d.no_image_normalization = p.no_image_normalization();
  d.variable = strings_of(p.variable());
  return d;
}

void dataset_to_proto(const ir::Dataset& d, nnabla::Dataset* p) {
  p->set_name(d.name);
  p->set_type(d.type);
  p->set_uri(d.uri);
  p->set_batch_size(d.batch_size);
  p->set_cache_dir(d.cache_dir);
  p->set_overwrite_cache(d.overwrite_cache);
  p->set_create_cache_explicitly(d.create_cache_explicitly);
  p->set_shuffle(d.shuffle);
  p->set_no_image_normalization(d.no_image_normalization);
  for (const auto& v : d.variable) p->add_variable(v);
}

ir::Optimizer proto_to_optimizer(const nnabla::Optimizer& p) {
  ir::Optimizer o;
  o.name = p.name();
  return with_context("optimizer '" + o.name + "'", [&] {
    o.order = p.order();
    o.network_name = p.network_name();
    o.dataset_name = strings_of(p.dataset_name());
    if (p.has_solver()) o.solver = proto_to_solver(p.solver());
    o.update_interval = p.update_interval();
    o.data_variable = convert_all(p.data_variable(), data_var);
    o.generator_variable = convert_all(p.generator_variable(), gen_var);
    o.loss_variable = convert_all(p.loss_variable(), loss_var);
    o.parameter_variable = convert_all(p.parameter_variable(), param_var);
    o.start_iter = p.start_iter();
    o.end_iter = p.end_iter();
    return o;
  });
}

void optimizer_to_proto(const ir::Optimizer& o, bool with_states, nnabla::Optimizer* p) {
  with_context("optimizer '" + o.name + "'", [&] {
    p->set_name(o.name);
    p->set_order(o.order);
    p->set_network_name(o.network_name);
    for (const auto& d : o.dataset_name) p->add_dataset_name(d);
    solver_to_proto(o.solver, with_states, p->mutable_solver());
    p->set_update_interval(o.update_interval);
    add_all(o.data_variable, [&] { return p->add_data_variable(); });
    add_all(o.generator_variable, [&] { return p->add_generator_variable(); });
    add_all(o.loss_variable, [&] { return p->add_loss_variable(); });
    add_all(o.parameter_variable, [&] { return p->add_parameter_variable(); });
    p->set_start_iter(o.start_iter);
    p->set_end_iter(o.end_iter);
  });
}

ir::Monitor proto_to_monitor(const nnabla::Monitor& p) {
  ir::Monitor m;
  m.name = p.name();
  m.network_name = p.network_name();
  m.dataset_name = strings_of(p.dataset_name());
  m.data_variable = convert_all(p.data_variable(), data_var);
  m.generator_variable = convert_all(p.generator_variable(), gen_var);
  m.monitor_variable = convert_all(p.monitor_variable(), mon_var);
  return m;
}

void monitor_to_proto(const ir::Monitor& m, nnabla::Monitor* p) {
  p->set_name(m.name);
  p->set_network_name(m.network_name);
  for (const auto& d : m.dataset_name) p->add_dataset_name(d);
  add_all(m.data_variable, [&] { return p->add_data_variable(); });
  add_all(m.generator_variable, [&] { return p->add_generator_variable(); });
  add_all(m.monitor_variable, [&] { return p->add_monitor_variable(); });
}

ir::Executor proto_to_executor(const nnabla::Executor& p) {
  ir::Executor e;
  e.name = p.name();
  e.network_name = p.network_name();
  e.num_evaluations = p.num_evaluations();
  e.repeat_evaluation_type = p.repeat_evaluation_type();
  e.need_back_propagation = p.need_back_propagation();
  e.data_variable = convert_all(p.data_variable(), data_var);
  e.generator_variable = convert_all(p.generator_variable(), gen_var);
  e.loss_variable = convert_all(p.loss_variable(), loss_var);
  e.output_variable = convert_all(p.output_variable(), out_var);
  e.parameter_variable = convert_all(p.parameter_variable(), param_var);
  e.no_image_normalization = p.no_image_normalization();
  return e;
}

void executor_to_proto(const ir::Executor& e, nnabla::Executor* p) {
  p->set_name(e.name);
  p->set_network_name(e.network_name);
  p->set_num_evaluations(e.num_evaluations);
  p->set_repeat_evaluation_type(e.repeat_evaluation_type);
  p->set_need_back_propagation(e.need_back_propagation);
  add_all(e.data_variable, [&] { return p->add_data_variable(); });
  add_all(e.generator_variable, [&] { return p->add_generator_variable(); });
  add_all(e.loss_variable, [&] { return p->add_loss_variable(); });
  add_all(e.output_variable, [&] { return p->add_output_variable(); });
  add_all(e.parameter_variable, [&] { return p->add_parameter_variable(); });
  p->set_no_image_normalization(e.no_image_normalization);
}

}  // namespace

ir::Model proto_to_model(const nnabla::NNablaProtoBuf& proto) {
  ir::Model m;
  m.version = proto.version();
  if (proto.has_global_config() && proto.global_config().has_default_context())
    m.default_context = proto_to_context(proto.global_config().default_context());
  if (proto.has_training_config()) {
    const auto& t = proto.training_config();
    m.training_config = ir::TrainingConfig{t.max_epoch(), t.iter_per_epoch(), t.save_best(), t.monitor_interval()};
  }
  m.networks = convert_all(proto.network(), proto_to_network);
  m.parameters = convert_all(proto.parameter(), proto_to_parameter);
  m.datasets = convert_all(proto.dataset(), proto_to_dataset);
  m.optimizers = convert_all(proto.optimizer(), proto_to_optimizer);
  m.monitors = convert_all(proto.monitor(), proto_to_monitor);
  m.executors = convert_all(proto.executor(), proto_to_executor);
  return m;
}

nnabla::NNablaProtoBuf model_to_proto(const ir::Model& m, const ProtoParts& parts) {
  nnabla::NNablaProtoBuf proto;
  proto.set_version(m.version);
  if (m.default_context)
    context_to_proto(*m.default_context, proto.mutable_global_config()->mutable_default_context());
  if (m.training_config) {
    auto* t = proto.mutable_training_config();
    t->set_max_epoch(m.training_config->max_epoch);
    t->set_iter_per_epoch(m.training_config->iter_per_epoch);
    t->set_save_best(m.training_config->save_best);
    t->set_monitor_interval(m.training_config->monitor_interval);
  }
  for (const auto& n : m.networks) network_to_proto(n, proto.add_network());
  if (parts.parameters)
    for (const auto& p : m.parameters) parameter_to_proto(p, proto.add_parameter());
  for (const auto& d : m.datasets) dataset_to_proto(d, proto.add_dataset());
  for (const auto& o : m.optimizers) optimizer_to_proto(o, parts.solver_states, proto.add_optimizer());
  for (const auto& mo : m.monitors) monitor_to_proto(mo, proto.add_monitor());
  for (const auto& e : m.executors) executor_to_proto(e, proto.add_executor());
  return proto;
}

}  // namespace nn::formats::nnp
