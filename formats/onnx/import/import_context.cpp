// ImportContext: tensor bookkeeping, constant folding through libnn, function and variable emission.
#include "formats/onnx/import/import_context.hpp"

#include <cmath>
#include <cstdio>
#include <set>

#include "nn/core/error.hpp"
#include "nn/graph/functions.hpp"
#include "nn/ir/graph_builder.hpp"
#include "nn/ops/op_registry.hpp"

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

const SymValues* ImportContext::symbols(const std::string& name) const {
  const Tensor& t = tensor(name);
  return t.sym.empty() ? nullptr : &t.sym;
}

void ImportContext::set_symbols(const std::string& name, SymValues values) {
  auto it = tensors_.find(resolve(name));
  NN_INTERNAL_CHECK(it != tensors_.end()) << name;
  if (!has_symbols(values)) values.clear();
  NN_INTERNAL_CHECK(values.empty() || int64_t(values.size()) == shape_size(it->second.var->shape())) << name;
  it->second.sym = std::move(values);
}

Sym ImportContext::dim_symbol(const std::string& name, int64_t axis) const {
  const Tensor& t = tensor(name);
  if (axis == t.data_axis && t.data_size) return t.data_size;
  return sym_const(t.var->shape().at(size_t(axis)));
}

Sym ImportContext::size_symbol(const std::string& name) const {
  std::vector<Sym> dims;
  for (size_t d = 0; d < shape(name).size(); ++d) dims.push_back(dim_symbol(name, int64_t(d)));
  return sym_op(SymExpr::Kind::kMul, dims);
}

Sym ImportContext::new_atom(Sym bound) {
  atom_bounds_.push_back(std::move(bound));
  return sym_atom(int64_t(atom_bounds_.size() - 1));
}

void ImportContext::set_data_axis(const std::string& name, int64_t axis, Sym size) {
  auto it = tensors_.find(resolve(name));
  NN_INTERNAL_CHECK(it != tensors_.end()) << name;
  it->second.data_axis = size ? axis : -1;
  it->second.data_size = size;
  if (size && !it->second.constant) sized_.emplace(sym_text(size), std::make_pair(resolve(name), axis));
}

std::string ImportContext::ruler(const Sym& size, const std::string& what) {
  const std::string key = sym_text(size);
  if (auto it = rulers_.find(key); it != rulers_.end()) return it->second;
  auto it = sized_.find(key);
  NN_CHECK_CODE(it != sized_.end(), ErrorCode::kUnsupported)
      << what << " has a size known only at run time (" << key << ") that no tensor computed before it has";
  const auto [source, axis] = it->second;
  const Shape xs = shape(source);
  std::string r = source;
  if (xs.size() > 1) {  // the data axis alone: index 0 of every other axis
    std::vector<int64_t> start(xs.size(), 0), stop(xs.begin(), xs.end()), step(xs.size(), 1);
    for (size_t d = 0; d < xs.size(); ++d)
      if (int64_t(d) != axis) stop[d] = 1;
    stop[size_t(axis)] = int64_t(1) << 30;  // to the run-time end
    r = emit1("Slice", {r}, {{"start", start}, {"stop", stop}, {"step", step}});
    r = emit1("Reshape", {r}, {{"shape", std::vector<int64_t>{-1}}});
  }
  rulers_[key] = r;
  return r;
}

std::vector<float> ImportContext::const_values(const std::string& name) const {
  const Tensor& t = tensor(name);
  NN_CHECK_CODE(t.constant, ErrorCode::kUnsupported)
      << "tensor " << quoted(name) << " must be a constant (an initializer or computable at import time)";
  NN_CHECK_CODE(t.sym.empty(), ErrorCode::kUnsupported)
      << "tensor " << quoted(name) << " follows the run-time size of a data-sized tensor ("
      << (t.sym.size() == 1 ? sym_text(t.sym[0]) : std::to_string(t.sym.size()) + " values")
      << "), and this use of it needs its value at import";
  return t.var->data()->to_vector();
}

std::vector<float> ImportContext::stand_in_values(const std::string& name) const {
  const Tensor& t = tensor(name);
  NN_CHECK_CODE(t.constant, ErrorCode::kUnsupported)
      << "tensor " << quoted(name) << " must be a constant (an initializer or computable at import time)";
  return t.var->data()->to_vector();
}

std::vector<int64_t> ImportContext::const_ints(const std::string& name) const {
  if (!tensor(name).sym.empty()) const_values(name);  // refuses, naming it
  return stand_in_ints(name);
}

std::vector<int64_t> ImportContext::stand_in_ints(const std::string& name) const {
  const Tensor& t = tensor(name);
  if (t.constant && !t.ints.empty()) return t.ints;
  NN_CHECK_CODE(t.constant, ErrorCode::kUnsupported)
      << "tensor " << quoted(name) << " must be a constant (an initializer or computable at import time)";
  std::vector<float> v = t.var->data()->to_vector();
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
                                             const Attrs& attrs, std::vector<std::string> outputs, bool fold,
                                             const SubNetworks& subnetworks) {
  std::vector<VariablePtr> vars;
  bool all_constant = fold && subnetworks.empty() && !inputs.empty(), symbolic = false;
  for (const auto& name : inputs) {
    const Tensor& t = tensor(name);
    vars.push_back(t.var);
    all_constant = all_constant && t.constant && t.foldable;
    symbolic = symbolic || !t.sym.empty();
  }
  if (symbolic && !all_constant)  // it would run on its import-time stand-in
    for (const auto& name : inputs) {
      const Tensor& t = tensor(name);
      NN_CHECK_CODE(t.sym.empty(), ErrorCode::kUnsupported)
          << "tensor " << quoted(name) << " follows the run-time size of a data-sized tensor ("
          << (t.sym.size() == 1 ? sym_text(t.sym[0]) : std::to_string(t.sym.size()) + " values") << "), and "
          << type << " would compute with it as data";
    }
  const Attrs& used_attrs = type == "Reshape" && !all_constant ? reshape_of_data_axis(inputs.at(0), attrs) : attrs;
  ir::Function f;
  f.subnetworks = subnetworks;
  std::vector<VariablePtr> results = with_context(type, [&] {
    if (subnetworks.empty()) return nn::call(type, vars, used_attrs, nn::cpu_context());
    FunctionPtr fn = OpRegistry::instance().create(type, used_attrs, nn::cpu_context());
    fn->set_subgraphs(ir::build_subgraphs(f, {}));
    return connect(fn, vars);
  });
  if (outputs.size() < results.size()) outputs.resize(results.size());
  for (auto& o : outputs)
    if (o.empty()) o = helper_name("");
  for (const auto& o : outputs) all_constant = all_constant && !at_run_time_.count(o);
  if (all_constant) {
    for (size_t j = 0; j < results.size(); ++j) checked_constant_size(outputs[j], results[j]->shape());
    results.front()->forward();
    for (size_t j = 0; j < results.size(); ++j)
      add_constant(outputs[j], results[j]->shape(), results[j]->data()->to_vector());
    if (symbolic) fold_symbols_of(type, inputs, used_attrs, outputs, results);
    return outputs;
  }
  f.name = function_name(type);
  f.type = type;
  for (const auto& name : inputs) f.inputs.push_back(resolve(name));
  f.outputs.assign(outputs.begin(), outputs.begin() + long(results.size()));
  f.has_param = true;
  f.attrs = used_attrs;
  network_.functions.push_back(std::move(f));
  const Function& built = results.front()->parent()->function();
  std::vector<DataAxis> axes;
  for (size_t j = 0; j < results.size(); ++j)
    axes.push_back(output_data_axis(type, inputs, used_attrs, built, j, results[j]->shape()));
  // In a sub-graph, sizes follow values (ONNXSlice, ONNXConstantOfShape ...): its functions run on their stand-ins
  // so that what reads their outputs sees consistent values and shapes (zeros where a stand-in cannot run).
  bool ran = false;
  if (shapes_at_run_time_) {
    try {
      results.front()->forward();
      ran = true;
    } catch (const Error&) {
    }
  }
  for (size_t j = 0; j < results.size(); ++j) {
    Tensor t;
    t.var = Variable::create(results[j]->shape());
    if (ran)
      t.var->data()->copy_from(*results[j]->data());
    else
      t.var->data()->zero();
    aliases_.erase(outputs[j]);
    tensors_[outputs[j]] = std::move(t);
    set_data_axis(outputs[j], axes[j].axis, axes[j].size);
    declare_buffer(outputs[j], results[j]->shape());
  }
  return outputs;
}

void ImportContext::fold_symbols_of(const std::string& type, const std::vector<std::string>& inputs,
                                    const Attrs& attrs, const std::vector<std::string>& outputs,
                                    const std::vector<VariablePtr>& results) {
  SymFold f;
  f.type = type;
  f.scalar = attrs.has("val") ? attrs.get_float("val") : 0.0;
  for (const auto& name : inputs) {
    const Tensor& t = tensor(name);
    f.in_shapes.push_back(t.var->shape());
    f.in_values.push_back(t.var->data()->to_vector());
    f.in_syms.push_back(t.sym);
  }
  for (size_t j = 0; j < results.size(); ++j) {
    f.out_shape = results[j]->shape();
    const RunFn run = [&](const std::vector<std::vector<float>>& values) {
      std::vector<VariablePtr> vars;
      for (size_t k = 0; k < values.size(); ++k) {
        vars.push_back(Variable::create(f.in_shapes[k]));
        std::copy(values[k].begin(), values[k].end(), vars.back()->data()->cast<float>(true));
      }
      std::vector<VariablePtr> out = nn::call(type, vars, attrs, nn::cpu_context());
      out.front()->forward();
      return out[j]->data()->to_vector();
    };
    set_symbols(outputs[j], fold_symbols(f, run));
  }
}

ImportContext::DataAxis ImportContext::output_data_axis(const std::string& type,
                                                        const std::vector<std::string>& inputs, const Attrs& attrs,
                                                        const Function& f, size_t j, const Shape& out_shape) {
  using K = SymExpr::Kind;
  const size_t rank = out_shape.size();
  if (type == "Loop")  // the final carried values keep their shape, the scan outputs stack a run-time count
    return j < size_t(attrs.get_int("num_carried")) ? DataAxis{} : DataAxis{0, new_atom(nullptr)};
  if (type == "If" || type == "Shape") return {};  // If: marked where the branches differ (import_control.cpp)
  if (f.output_size_follows_data()) {
    // A fresh length, at most the product of the inputs' element counts (NonZero, BoolGather and Unique keep at
    // most every element; NonMaxSuppression at most batch x classes x boxes).
    // The same function of the same inputs has the same length (two NonZero of one mask).
    std::string key = type + "|" + std::to_string(j);
    for (const auto& name : inputs) key += "|" + resolve(name);
    for (const auto& [name, value] : attrs.values()) key += "|" + name + "=" + attr_to_string(value);
    auto [it, fresh] = same_length_.emplace(key, nullptr);
    if (fresh) {
      std::vector<Sym> bound;
      for (const auto& name : inputs) bound.push_back(size_symbol(name));
      it->second = new_atom(sym_op(K::kMul, bound));
    }
    const Sym size = it->second;
    if (rank == 0) return {};                 // a scalar (ONNXReshape to ()) has no axis to size
    if (type == "NonZero") return {1, size};  // (rank of x, count)
    if (type == "ONNXSlice") {                // the first axis it slices
      const int64_t a = attrs.get_ints("axes").at(0);
      return {a < 0 ? a + int64_t(rank) : a, size};
    }
    if (type == "Unique" && j == 0 && attrs.has("axis") && !attrs.get_bool("flatten", true))
      return {attrs.get_int("axis"), size};
    return {0, size};
  }
  if (type == "Gather" || type == "GatherNd") {  // the axes of the indices come in the middle / in front
    const Tensor& x = tensor(inputs.at(0));
    const Tensor& idx = tensor(inputs.at(1));
    const int64_t ir = int64_t(idx.var->shape().size());
    if (type == "Gather") {
      const int64_t axis = attrs.get_int("axis");
      if (idx.data_axis >= 0) return {axis + idx.data_axis, idx.data_size};
      if (x.data_axis >= 0 && x.data_axis != axis)
        return {x.data_axis < axis ? x.data_axis : x.data_axis + ir - 1, x.data_size};
      return {};
    }
    const int64_t m = idx.var->shape().empty() ? 0 : idx.var->shape()[0];
    if (idx.data_axis >= 1) return {idx.data_axis - 1, idx.data_size};
    if (x.data_axis >= m) return {ir - 1 + x.data_axis - m, x.data_size};
    return {};
  }
  if (type == "ScatterNd" && inputs.size() == 3) {  // the output is input out written into
    const Tensor& o = tensor(inputs[2]);
    return o.data_axis >= 0 ? DataAxis{o.data_axis, o.data_size} : DataAxis{};
  }
  const Tensor* in = nullptr;
  for (const auto& name : inputs) {
    const Tensor& t = tensor(name);
    if (t.data_axis < 0 || !t.data_size) continue;
    in = &t;
    break;
  }
  if (!in) return {};
  const int64_t in_axis = in->data_axis;
  const Shape& xs = in->var->shape();
  if (type == "Transpose") {
    const auto perm = attrs.get_ints("axes");
    for (size_t i = 0; i < perm.size(); ++i)
      if (perm[i] == in_axis) return {int64_t(i), in->data_size};
    return {};
  }
  if (type == "Reshape") {
    const auto shape = attrs.get_ints("shape");
    int64_t at = -1, out_others = 1, in_others = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] == -1)
        at = int64_t(i);
      else
        out_others *= shape[i];
    }
    if (at < 0) return {};
    for (size_t i = 0; i < xs.size(); ++i)
      if (int64_t(i) != in_axis) in_others *= xs[i];
    if (out_others > 0 && in_others % out_others == 0)
      return {at, sym_op(K::kMul, {in->data_size, sym_const(in_others / out_others)})};
    return {at, new_atom(sym_op(K::kMul, {in->data_size, sym_const(in_others)}))};
  }
  if (type == "Stack") {  // a new axis at `axis`
    const int64_t axis = attrs.get_int("axis");
    return {in_axis + (in_axis >= axis ? 1 : 0), in->data_size};
  }
  if (rank != xs.size()) return {};
  if (type == "Concatenate" && attrs.get_int("axis") == in_axis) {
    std::vector<Sym> sizes;
    for (const auto& name : inputs) sizes.push_back(dim_symbol(name, in_axis));
    return {in_axis, sym_op(K::kAdd, sizes)};
  }
  if (type == "Slice") {  // start/stop/step name the trailing axes
    auto start = attrs.get_ints("start"), stop = attrs.get_ints("stop"), step = attrs.get_ints("step");
    const int64_t lead = int64_t(xs.size()) - int64_t(start.size());
    if (in_axis < lead) return {in_axis, in->data_size};
    const size_t a = size_t(in_axis - lead);
    if (start[a] == 0 && step[a] == 1)
      return {in_axis, stop[a] >= (int64_t(1) << 30) ? in->data_size
                                                     : sym_op(K::kMin, {in->data_size, sym_const(stop[a])})};
    return {in_axis, new_atom(in->data_size)};
  }
  if (type == "Pad" || type == "Tile" || type == "Broadcast") return {in_axis, new_atom(nullptr)};
  return {in_axis, in->data_size};  // element-wise, sorts, slices of other axes
}

Attrs ImportContext::reshape_of_data_axis(const std::string& input, const Attrs& attrs) const {
  const Tensor& t = tensor(input);
  if (t.data_axis < 0) return attrs;
  const Shape& xs = t.var->shape();
  int64_t others = 1;  // the size of the input without its data axis
  for (size_t i = 0; i < xs.size(); ++i)
    if (int64_t(i) != t.data_axis) others *= xs[i];
  std::vector<int64_t> target = attrs.get_ints("shape");
  // The target dim of the data axis: its import-time size times what the other dims leave of the input's others
  // (a Flatten that merges the data axis with the axes after it), the other dims holding the rest.
  int64_t found = -1, candidates = 0;
  for (size_t i = 0; i < target.size(); ++i) {
    int64_t rest = 1;
    for (size_t k = 0; k < target.size(); ++k)
      if (k != i) rest *= target[k];
    if (rest > 0 && others % rest == 0 && target[i] == xs[size_t(t.data_axis)] * (others / rest)) {
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
