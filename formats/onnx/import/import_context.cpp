// ImportContext: tensor bookkeeping, constant folding through libnn, function and variable emission.
#include "formats/onnx/import/import_context.hpp"

#include <cmath>
#include <cstdio>
#include <set>

#include "nn/core/error.hpp"
#include "nn/graph/functions.hpp"

namespace nn::formats::onnx {

namespace {
std::string quoted(const std::string& s) { return "'" + s + "'"; }

// Throws unless attribute a holds one of the expected types (a Softmax axis given as a string must not
// read as 0). Files of IR version 1 leave `type` unset: those are taken as written.
void expect_type(const ::onnx::AttributeProto& a,
                 std::initializer_list<::onnx::AttributeProto::AttributeType> ok) {
  if (a.type() == ::onnx::AttributeProto::UNDEFINED) return;
  for (auto t : ok)
    if (a.type() == t) return;
  NN_FAIL(ErrorCode::kInvalid) << "attribute " << quoted(a.name()) << " is of type "
                               << ::onnx::AttributeProto::AttributeType_Name(a.type()) << ", expected "
                               << ::onnx::AttributeProto::AttributeType_Name(*ok.begin());
}
}  // namespace

// ---------------------------------------------------------------------------------------------------
const ::onnx::AttributeProto* NodeView::find(const std::string& name) const {
  for (const auto& a : node_.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

int64_t NodeView::get_int(const std::string& name, int64_t def) const {
  const auto* a = find(name);
  if (!a) return def;
  expect_type(*a, {::onnx::AttributeProto::INT});
  return a->i();
}

float NodeView::get_float(const std::string& name, float def) const {
  const auto* a = find(name);
  if (!a) return def;
  expect_type(*a, {::onnx::AttributeProto::FLOAT, ::onnx::AttributeProto::INT});
  return a->type() == ::onnx::AttributeProto::INT ? float(a->i()) : a->f();
}

std::string NodeView::get_string(const std::string& name, const std::string& def) const {
  const auto* a = find(name);
  if (!a) return def;
  expect_type(*a, {::onnx::AttributeProto::STRING});
  return a->s();
}

std::vector<int64_t> NodeView::get_ints(const std::string& name, const std::vector<int64_t>& def) const {
  const auto* a = find(name);
  if (!a) return def;
  expect_type(*a, {::onnx::AttributeProto::INTS});
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

std::vector<float> NodeView::get_floats(const std::string& name, const std::vector<float>& def) const {
  const auto* a = find(name);
  if (!a) return def;
  expect_type(*a, {::onnx::AttributeProto::FLOATS});
  return std::vector<float>(a->floats().begin(), a->floats().end());
}

const ::onnx::TensorProto* NodeView::get_tensor(const std::string& name) const {
  const auto* a = find(name);
  return a && a->has_t() ? &a->t() : nullptr;
}

// ---------------------------------------------------------------------------------------------------
ImportContext::ImportContext(std::string graph_name, int64_t opset, std::string base_dir)
    : graph_name_(std::move(graph_name)), opset_(opset), base_dir_(std::move(base_dir)) {
  network_.name = graph_name_;
}

std::string ImportContext::resolve(const std::string& name) const {
  std::string n = name;
  for (int guard = 0; guard < 1000; ++guard) {
    auto it = aliases_.find(n);
    if (it == aliases_.end()) return n;
    n = it->second;
  }
  NN_FAIL(ErrorCode::kInvalid) << "tensor " << quoted(name) << " aliases itself";
}

bool ImportContext::has(const std::string& name) const { return tensors_.count(resolve(name)) != 0; }

const ImportContext::Tensor& ImportContext::tensor(const std::string& name) const {
  auto it = tensors_.find(resolve(name));
  NN_CHECK(it != tensors_.end()) << "tensor " << quoted(name)
                                 << " is neither a graph input, an initializer nor an earlier node's output";
  return it->second;
}

const Shape& ImportContext::shape(const std::string& name) const { return tensor(name).var->shape(); }
bool ImportContext::is_constant(const std::string& name) const {
  const Tensor& t = tensor(name);
  return t.constant && t.foldable;
}
int32_t ImportContext::data_type(const std::string& name) const { return tensor(name).data_type; }

void ImportContext::set_data_type(const std::string& name, int32_t t) {
  auto it = tensors_.find(resolve(name));
  if (it != tensors_.end()) it->second.data_type = t;
}

std::vector<float> ImportContext::const_values(const std::string& name) const {
  const Tensor& t = tensor(name);
  NN_CHECK_CODE(t.constant, ErrorCode::kUnsupported)
      << "tensor " << quoted(name) << " must be a constant (an initializer or computable at import time)";
  return t.var->data()->to_vector();
}

std::vector<int64_t> ImportContext::const_ints(const std::string& name) const {
  const Tensor& t = tensor(name);
  if (t.constant && !t.ints.empty()) return t.ints;
  std::vector<float> v = const_values(name);
  std::vector<int64_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const double d = std::nearbyint(double(v[i]));
    NN_CHECK(!std::isnan(d)) << "tensor " << quoted(name) << ": NaN where integers are expected";
    out[i] = d >= 9.2e18 ? INT64_MAX : d <= -9.2e18 ? INT64_MIN : int64_t(d);
  }
  return out;
}

void ImportContext::add_input(const std::string& name, const Shape& static_shape, const Shape& declared,
                              int32_t data_type) {
  Tensor t;
  t.var = Variable::create(static_shape);
  t.var->data()->zero();
  t.data_type = data_type;
  tensors_[name] = std::move(t);
  declared_inputs_[name] = declared;
  ir::Variable v;
  v.name = name;
  v.shape = declared;
  network_.variables.push_back(v);
}

int64_t ImportContext::checked_constant_size(const std::string& name, const Shape& shape) {
  return checked_shape_size(shape, kMaxConstantElements, "constant '" + name + "'");
}

void ImportContext::add_constant(const std::string& name, const Shape& shape, std::vector<float> values,
                                 std::vector<int64_t> ints, int32_t data_type, bool foldable) {
  checked_constant_size(name, shape);
  Tensor t;
  t.var = Variable::create(shape);
  float* dst = t.var->data()->cast<float>(true);
  NN_INTERNAL_CHECK(int64_t(values.size()) == shape_size(shape)) << name;
  std::copy(values.begin(), values.end(), dst);
  t.constant = true;
  t.foldable = foldable;
  t.ints = std::move(ints);
  t.data_type = data_type;
  aliases_.erase(name);
  tensors_[name] = std::move(t);
}

void ImportContext::alias(const std::string& name, const std::string& target) {
  const std::string resolved = resolve(target);
  if (resolved == name) return;
  aliases_[name] = resolved;
}

void ImportContext::begin_node(const ::onnx::NodeProto& node) {
  node_name_ = node.name();
  node_base_ = node.output_size() > 0 && !node.output(0).empty() ? node.output(0) : node.op_type();
}

std::string ImportContext::helper_name(const std::string& base) {
  char suffix[16];
  std::snprintf(suffix, sizeof(suffix), "_%04d", helper_counter_++);
  return (base.empty() ? node_base_ : base) + suffix;
}

std::string ImportContext::function_name(const std::string& type) {
  const int k = type_counts_[type]++;
  std::string name = graph_name_ + "/";
  if (!node_name_.empty()) name += node_name_ + "/";
  return name + type + "_" + std::to_string(k);
}

void ImportContext::declare_buffer(const std::string& name, const Shape& shape) {
  ir::Variable v;
  v.name = name;
  v.shape = shape;
  network_.variables.push_back(v);
}

std::string ImportContext::constant(const Shape& shape, std::vector<float> values) {
  std::string name = helper_name("");
  add_constant(name, shape, std::move(values));
  return name;
}

std::vector<std::string> ImportContext::emit(const std::string& type, const std::vector<std::string>& inputs,
                                             const Attrs& attrs, std::vector<std::string> outputs, bool fold) {
  std::vector<VariablePtr> vars;
  bool all_constant = fold && !inputs.empty();
  for (const auto& name : inputs) {
    const Tensor& t = tensor(name);
    vars.push_back(t.var);
    all_constant = all_constant && t.constant && t.foldable;
  }
  const Attrs& used_attrs = type == "Reshape" && !all_constant ? reshape_of_data_axis(inputs.at(0), attrs) : attrs;
  std::vector<VariablePtr> results =
      with_context(type, [&] { return nn::call(type, vars, used_attrs, nn::cpu_context()); });
  if (outputs.size() < results.size()) outputs.resize(results.size());
  for (auto& o : outputs)
    if (o.empty()) o = helper_name("");
  if (all_constant) {
    for (size_t j = 0; j < results.size(); ++j) checked_constant_size(outputs[j], results[j]->shape());
    results.front()->forward();
    for (size_t j = 0; j < results.size(); ++j)
      add_constant(outputs[j], results[j]->shape(), results[j]->data()->to_vector());
    return outputs;
  }
  ir::Function f;
  f.name = function_name(type);
  f.type = type;
  for (const auto& name : inputs) f.inputs.push_back(resolve(name));
  f.outputs.assign(outputs.begin(), outputs.begin() + long(results.size()));
  f.has_param = true;
  f.attrs = used_attrs;
  network_.functions.push_back(std::move(f));
  const Function& built = results.front()->parent()->function();
  for (size_t j = 0; j < results.size(); ++j) {
    Tensor t;
    t.data_axis = output_data_axis(type, inputs, used_attrs, built, j, results[j]->shape().size());
    t.var = Variable::create(results[j]->shape());
    t.var->data()->zero();
    aliases_.erase(outputs[j]);
    tensors_[outputs[j]] = std::move(t);
    declare_buffer(outputs[j], results[j]->shape());
  }
  return outputs;
}

int64_t ImportContext::output_data_axis(const std::string& type, const std::vector<std::string>& inputs,
                                        const Attrs& attrs, const Function& f, size_t j, size_t rank) const {
  if (f.output_size_follows_data()) {
    if (type == "NonZero") return 1;  // (rank of x, count)
    if (type == "Unique" && j == 0 && attrs.has("axis") && !attrs.get_bool("flatten", true))
      return attrs.get_int("axis");
    return 0;
  }
  int64_t in_axis = -1;
  size_t in_rank = 0;
  for (const auto& name : inputs) {
    const Tensor& t = tensor(name);
    if (t.data_axis < 0) continue;
    in_axis = t.data_axis;
    in_rank = t.var->shape().size();
    break;
  }
  if (in_axis < 0) return -1;
  if (type == "Transpose") {
    const auto perm = attrs.get_ints("axes");
    for (size_t i = 0; i < perm.size(); ++i)
      if (perm[i] == in_axis) return int64_t(i);
    return -1;
  }
  if (type == "Reshape") {
    const auto shape = attrs.get_ints("shape");
    for (size_t i = 0; i < shape.size(); ++i)
      if (shape[i] == -1) return int64_t(i);
    return -1;
  }
  return rank == in_rank ? in_axis : -1;  // element-wise, slices, gathers that keep the axes
}

Attrs ImportContext::reshape_of_data_axis(const std::string& input, const Attrs& attrs) const {
  const Tensor& t = tensor(input);
  if (t.data_axis < 0) return attrs;
  const Shape& xs = t.var->shape();
  int64_t others = 1;  // the size of the input without its data axis
  for (size_t i = 0; i < xs.size(); ++i)
    if (int64_t(i) != t.data_axis) others *= xs[i];
  std::vector<int64_t> target = attrs.get_ints("shape");
  // The target dim of the data axis: its import-time size, with the other dims holding the rest.
  int64_t found = -1, candidates = 0;
  for (size_t i = 0; i < target.size(); ++i) {
    int64_t rest = 1;
    for (size_t k = 0; k < target.size(); ++k)
      if (k != i) rest *= target[k];
    if (target[i] == xs[size_t(t.data_axis)] && rest == others) {
      found = int64_t(i);
      ++candidates;
    }
  }
  if (candidates != 1) return attrs;  // ambiguous: the import-time size stays, and a run at another one says so
  target[size_t(found)] = -1;
  Attrs out = attrs;
  out.set("shape", target);
  return out;
}

std::string ImportContext::emit1(const std::string& type, const std::vector<std::string>& inputs,
                                 const Attrs& attrs, const std::string& output) {
  return emit(type, inputs, attrs, {output}).front();
}

ir::Model ImportContext::finish(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
  node_name_.clear();
  // Outputs that are not produced under their own name (aliases, constants, inputs) get an Identity.
  std::set<std::string> produced;
  for (const auto& f : network_.functions) produced.insert(f.outputs.begin(), f.outputs.end());
  for (const auto& out : outputs) {
    if (produced.count(out)) continue;
    node_base_ = out;
    std::string source = resolve(out);
    if (source == out) {
      NN_CHECK_CODE(tensor(out).constant, ErrorCode::kUnsupported)
          << "graph output " << quoted(out) << " is a graph input; nothing to compute";
      source = helper_name(out);
      tensors_[source] = tensors_.at(out);
    }
    tensors_.erase(out);
    aliases_.erase(out);
    emit("Identity", {source}, {}, {out}, /*fold=*/false);
  }

  ir::Model model;
  std::set<std::string> used;
  for (const auto& f : network_.functions) used.insert(f.inputs.begin(), f.inputs.end());
  ir::Executor exec;
  exec.name = "exec_0";
  exec.network_name = graph_name_;
  for (const auto& in : inputs)
    if (!tensors_.at(in).constant) exec.data_variable.push_back({in, in});
  for (const auto& out : outputs) exec.output_variable.push_back({out, "", out});
  for (auto& [name, t] : tensors_) {
    if (!t.constant || !used.count(name)) continue;
    ir::Parameter p;
    p.name = name;
    p.shape = t.var->shape();
    p.data = t.var->data()->to_vector();
    t.var.reset();  // the constant is held once, as the parameter, from here on
    ir::Variable v;
    v.name = name;
    v.type = "Parameter";
    v.shape = p.shape;
    model.parameters.push_back(std::move(p));
    v.initializer = {"Constant", 1.0};
    network_.variables.push_back(v);
    exec.parameter_variable.push_back({name, 1.0});
  }
  model.networks.push_back(network_);
  model.executors.push_back(std::move(exec));
  return model;
}

}  // namespace nn::formats::onnx
