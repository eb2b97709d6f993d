// Emitter: graph building helpers for the ONNX export rules (names, constants, reshapes, parameters).
#include "formats/onnx/export/onnx_emitter.hpp"

#include <cstdio>
#include <cstring>

#include "nn/core/error.hpp"

namespace nn::formats::onnx_export {

Emitter::Emitter(const ir::Model& model, const ir::Network& network, onnx::GraphProto* graph, int table,
                 Dialect dialect)
    : model_(model), network_(network), graph_(graph), table_(table), dialect_(dialect) {}

std::string Emitter::fresh(const std::string& base, const std::string& suffix) {
  char digits[16];
  std::snprintf(digits, sizeof digits, "%04d", ++counter_);
  return base + "_" + digits + (suffix.empty() ? "" : "_" + suffix);
}

std::string Emitter::node_name(const std::string& op) {
  char digits[16];
  std::snprintf(digits, sizeof digits, "%04d", ++counter_);
  return op + "_" + digits;
}

onnx::NodeProto* Emitter::node(const std::string& op, const std::vector<std::string>& inputs,
                               const std::vector<std::string>& outputs, const std::string& name) {
  onnx::NodeProto* n = graph_->add_node();
  for (const auto& i : inputs) n->add_input(i);
  for (const auto& o : outputs) n->add_output(o);
  if (!name.empty()) n->set_name(name);
  n->set_op_type(op);
  return n;
}

const Shape& Emitter::shape(const std::string& variable) const {
  const ir::Variable* v = network_.find_variable(variable);
  NN_CHECK(v != nullptr) << "variable '" << variable << "' is not declared in network '" << network_.name << "'";
  if (v->shape.empty()) {  // old files leave parameter variables without a shape
    if (const ir::Parameter* p = model_.find_parameter(variable)) return p->shape;
    NN_FAIL(ErrorCode::kUnsupported) << "variable '" << variable << "' has no shape in the file (ONNX needs it)";
  }
  return v->shape;
}

bool Emitter::is_parameter(const std::string& variable) const {
  const ir::Variable* v = network_.find_variable(variable);
  return v != nullptr && v->type == "Parameter" && model_.find_parameter(variable) != nullptr;
}

const ir::Parameter* Emitter::parameter(const std::string& name) const { return model_.find_parameter(name); }

void Emitter::reshape_parameter(const std::string& name, const Shape& dims) { param_dims_[name] = dims; }

void Emitter::replace_parameter_data(const std::string& name, const Shape& dims, std::vector<float> data) {
  param_data_[name] = {dims, std::move(data)};
}

namespace {
void set_dims(onnx::TensorProto* t, const Shape& dims) {
  for (int64_t d : dims) t->add_dims(d);
}
}  // namespace

std::string Emitter::int64_initializer(const std::string& base, const std::vector<int64_t>& values,
                                       const Shape& dims) {
  std::string name = fresh(base, "");
  onnx::TensorProto* t = graph_->add_initializer();
  set_dims(t, dims);
  t->set_data_type(onnx::TensorProto::INT64);
  t->set_name(name);
  t->set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(int64_t)));
  return name;
}

std::string Emitter::int64_initializer(const std::string& base, const std::vector<int64_t>& values) {
  return int64_initializer(base, values, {static_cast<int64_t>(values.size())});
}

std::string Emitter::small_int_initializer(const std::string& base, int elem_type,
                                           const std::vector<int64_t>& values, const Shape& dims) {
  std::string name = fresh(base, "");
  onnx::TensorProto* t = graph_->add_initializer();
  set_dims(t, dims);
  t->set_data_type(elem_type);
  t->set_name(name);
  for (int64_t v : values) t->add_int32_data(int32_t(v));
  return name;
}

std::string Emitter::float_initializer(const std::string& base, const std::vector<float>& values,
                                       const Shape& dims) {
  std::string name = fresh(base, "");
  named_float_initializer(name, values, dims);
  return name;
}

void Emitter::named_float_initializer(const std::string& name, const std::vector<float>& values,
                                      const Shape& dims) {
  onnx::TensorProto* t = graph_->add_initializer();
  set_dims(t, dims);
  t->set_data_type(onnx::TensorProto::FLOAT);
  t->set_name(name);
  t->set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
}

std::string Emitter::float_constant(const std::string& base, const std::vector<float>& values, const Shape& dims,
                                    const std::string& suffix) {
  std::string name = fresh(base, suffix);
  onnx::NodeProto* n = node("Constant", {}, {name});
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  onnx::TensorProto* t = a->mutable_t();
  set_dims(t, dims);
  t->set_data_type(onnx::TensorProto::FLOAT);
  for (float v : values) t->add_float_data(v);
  return name;
}

std::string Emitter::int64_constant(const std::string& base, const std::vector<int64_t>& values) {
  std::string name = fresh(base, "shape");
  onnx::NodeProto* n = node("Constant", {}, {name});
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  onnx::TensorProto* t = a->mutable_t();
  t->add_dims(static_cast<int64_t>(values.size()));
  t->set_data_type(onnx::TensorProto::INT64);
  for (int64_t v : values) t->add_int64_data(v);
  return name;
}

std::string Emitter::bool_constant(const std::string& base, bool value, const Shape& dims) {
  std::string name = fresh(base, "constant");
  onnx::NodeProto* n = node("Constant", {}, {name});
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  onnx::TensorProto* t = a->mutable_t();
  set_dims(t, dims);
  t->set_data_type(onnx::TensorProto::BOOL);
  for (int64_t i = 0; i < shape_size(dims); ++i) t->add_int32_data(value ? 1 : 0);
  return name;
}

std::string Emitter::cast(const std::string& input, int to, const std::string& output) {
  std::string out = output.empty() ? fresh(input, "cast") : output;
  set_attr(node("Cast", {input}, {out}, node_name("Cast")), "to", int64_t(to));
  return out;
}

std::string Emitter::reshape(const std::string& input, const Shape& dims, const std::string& output) {
  std::string out = output.empty() ? fresh(input, "reshape") : output;
  if (table_ < 6) NN_FAIL(ErrorCode::kInternal) << "reshape below opset 5";
  const bool batched = !dims.empty() && dims[0] == 1 && !is_parameter(input);
  std::string shape_name = int64_initializer("reshape", shape_values(dims, batched));
  node("Reshape", {input, shape_name}, {out});
  return out;
}

void Emitter::set_dynamic_batch(const ir::Network& source) {
  dynamic_batch_ = true;
  for (const ir::Variable& v : source.variables)
    if (!v.shape.empty() && v.shape[0] < 0) batch_variables_.insert(v.name);
}

std::vector<int64_t> Emitter::shape_values(const Shape& dims, bool batched) const {
  std::vector<int64_t> values(dims.begin(), dims.end());
  if (dynamic_batch_ && batched && !values.empty()) values[0] = -1;
  return values;
}

int Emitter::elem_type(const std::string& variable) const {
  auto it = elem_types_.find(variable);
  return it == elem_types_.end() ? onnx::TensorProto::FLOAT : it->second;
}

void Emitter::write_parameters() {
  for (const ir::Parameter& p : model_.parameters) {
    const ir::Variable* v = network_.find_variable(p.name);
    if (v == nullptr) continue;  // upstream prints "Not in: <name>"
    onnx::TensorProto* t = graph_->add_initializer();
    auto replaced = param_data_.find(p.name);
    const Shape* dims = &p.shape;
    const std::vector<float>* data = &p.data;
    if (replaced != param_data_.end()) {
      dims = &replaced->second.first;
      data = &replaced->second.second;
    } else if (auto it = param_dims_.find(p.name); it != param_dims_.end()) {
      dims = &it->second;
    }
    set_dims(t, *dims);
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->set_name(p.name);
    t->set_raw_data(std::string(reinterpret_cast<const char*>(data->data()), data->size() * sizeof(float)));
  }
}

void set_attr(onnx::NodeProto* node, const std::string& name, int64_t value) {
  onnx::AttributeProto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(value);
}
void set_attr(onnx::NodeProto* node, const std::string& name, float value) {
  onnx::AttributeProto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(value);
}
void set_attr(onnx::NodeProto* node, const std::string& name, const std::string& value) {
  onnx::AttributeProto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(value);
}
void set_attr(onnx::NodeProto* node, const std::string& name, const std::vector<int64_t>& values) {
  onnx::AttributeProto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values) a->add_ints(v);
}
void set_attr(onnx::NodeProto* node, const std::string& name, const std::vector<float>& values) {
  onnx::AttributeProto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOATS);
  for (float v : values) a->add_floats(v);
}

const std::vector<Rule>& all_rules() {
  static const std::vector<Rule> rules = [] {
    std::vector<Rule> r;
    add_elementwise_rules(r);
    add_layer_rules(r);
    add_array_rules(r);
    add_composite_rules(r);
    add_indexing_rules(r);
    add_normalization_rules(r);
    add_resize_rules(r);
    add_selection_rules(r);
    add_quantization_rules(r);
    add_gather_rules(r);
    add_recurrent_rules(r);
    add_data_sized_rules(r);
    return r;
  }();
  return rules;
}

const Rule* find_rule(const std::string& type, int table) {
  const Rule* best = nullptr;
  for (const Rule& r : all_rules()) {
    if (type == r.type && r.min_table <= table && (best == nullptr || r.min_table > best->min_table)) best = &r;
  }
  return best;
}

}  // namespace nn::formats::onnx_export
