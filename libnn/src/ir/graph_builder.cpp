// Builds libnn graphs from expanded ir::Networks: parameters from a shared store, functions from the
// registry.
#include "nn/ir/graph_builder.hpp"

#include <cstring>
#include <set>

#include "ir/channel_last.hpp"
#include "ir/function_resolve.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"
#include "nn/graph/functions.hpp"
#include "nn/ir/function_label.hpp"
#include "nn/ir/initializer.hpp"
#include "nn/ops/op_registry.hpp"

namespace nn::ir {

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// The variable's declared shape with every negative (batch) dim replaced by the batch size.
Shape concrete_shape(const Variable& v, int64_t batch_size, const std::string& network) {
  Shape s = v.shape;
  for (auto& d : s)
    if (d < 0) d = batch_size;
  check_shape(s, "network " + quoted(network) + ": variable " + quoted(v.name));
  return s;
}

int64_t resolve_batch_size(const Network& network, const BuildOptions& options) {
  if (options.batch_size > 0) return options.batch_size;
  if (network.batch_size > 0) return network.batch_size;
  return 1;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
void ParameterStore::load(const std::vector<Parameter>& params) {
  for (const auto& p : params) add(p);
}

void ParameterStore::take(std::vector<Parameter>& params) {
  for (auto& p : params) {
    add(p);
    std::vector<float>().swap(p.data);
  }
  params.clear();
}

void ParameterStore::add(const Parameter& p) {
  check_shape(p.shape, "parameter " + quoted(p.name));
  NN_CHECK(int64_t(p.data.size()) == shape_size(p.shape))
      << "parameter " << quoted(p.name) << ": shape " << to_string(p.shape) << " needs " << shape_size(p.shape)
      << " values, the file holds " << p.data.size();
  auto var = nn::Variable::create(p.shape, p.need_grad);
  var->set_name(p.name);
  var->set_persistent(true);
  float* dst = var->data()->cast<float>(true);
  std::copy(p.data.begin(), p.data.end(), dst);
  auto it = by_name_.find(p.name);
  if (it != by_name_.end()) {
    // A later parameter of the same name replaces the earlier one (as the loaders do).
    for (auto& entry : ordered_)
      if (entry.first == p.name) entry.second = var;
    it->second = var;
  } else {
    by_name_[p.name] = var;
    ordered_.push_back({p.name, var});
  }
}

size_t ParameterStore::share_equal_from(const ParameterStore& other) {
  size_t shared = 0;
  for (auto& [name, var] : ordered_) {
    const VariablePtr theirs = other.find(name);
    if (!theirs || theirs == var || theirs->shape() != var->shape() || theirs->need_grad() != var->need_grad())
      continue;
    const size_t bytes = size_t(var->size()) * sizeof(float);
    if (std::memcmp(var->data()->get<float>(), theirs->data()->get<float>(), bytes) != 0) continue;
    var = theirs;
    by_name_[name] = theirs;
    shared += bytes;
  }
  return shared;
}

VariablePtr ParameterStore::find(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

VariablePtr ParameterStore::get_or_create(const std::string& name, const Shape& shape, const Initializer& init,
                                          RandomEngine& rng) {
  if (VariablePtr existing = find(name)) {
    NN_CHECK(existing->shape() == shape)
        << "parameter " << quoted(name) << " has shape " << to_string(existing->shape())
        << " but the network declares " << to_string(shape);
    return existing;
  }
  check_shape(shape, "parameter " + quoted(name));
  auto var = nn::Variable::create(shape, true);
  var->set_name(name);
  var->set_persistent(true);
  float* dst = var->data()->cast<float>(true);
  // An empty or unknown initializer type gives zeros.
  with_context("parameter " + quoted(name),
               [&] { initialize_parameter(init.type, init.multiplier, shape, dst, rng); });
  by_name_[name] = var;
  ordered_.push_back({name, var});
  return var;
}

std::vector<Parameter> ParameterStore::to_ir() const {
  std::vector<Parameter> out;
  out.reserve(ordered_.size());
  for (const auto& [name, var] : ordered_) {
    Parameter p;
    p.name = name;
    p.shape = var->shape();
    p.data = var->data()->to_vector();
    p.need_grad = var->need_grad();
    out.push_back(std::move(p));
  }
  return out;
}

VariablePtr BuiltNetwork::get(const std::string& var_name) const {
  auto it = variables.find(var_name);
  NN_CHECK(it != variables.end()) << "network " << quoted(name) << " has no variable " << quoted(var_name);
  return it->second;
}

// ---------------------------------------------------------------------------------------------------
std::vector<SubGraph> build_subgraphs(const Function& f, const BuildOptions& options) {
  std::vector<SubGraph> graphs;
  for (const auto& sub : f.subnetworks) {
    ParameterStore none;  // a sub-network reads every value through its inputs
    BuildOptions run = options;
    run.run_while_building = true;
    const BuiltNetwork built = build_network(sub->network, none, run);
    SubGraph g;
    for (const auto& name : sub->inputs) {
      auto it = built.variables.find(name);
      g.inputs.push_back(it == built.variables.end() ? nullptr : it->second);
    }
    for (const auto& name : sub->outputs) g.outputs.push_back(built.get(name));
    graphs.push_back(std::move(g));
  }
  return graphs;
}

namespace {

class NetworkBuilder {
 public:
  NetworkBuilder(const Network& network, ParameterStore& params, const BuildOptions& options)
      : network_(network), params_(params), options_(options), rng_(options.seed) {
    built_.name = network.name;
    built_.batch_size = resolve_batch_size(network, options);
  }

  BuiltNetwork build() {
    NN_CHECK(network_.repeat_info.empty())
        << "the network has repeat_info: expand it before building (internal order problem)";
    collect_producers();
    for (size_t i = 0; i < network_.functions.size(); ++i) {
      const Function& f = network_.functions[i];
      build_function(f, i);
    }
    collect_inputs_outputs();
    return std::move(built_);
  }

 private:
  void collect_producers() {
    for (size_t i = 0; i < network_.functions.size(); ++i)
      for (const auto& out : network_.functions[i].outputs) producer_[out] = i;
  }

  const Variable& declared(const std::string& name, const std::string& role) const {
    const Variable* v = network_.find_variable(name);
    NN_CHECK(v != nullptr) << role << " " << quoted(name) << " is not a variable of the network";
    return *v;
  }

  // An input of function `index`: an already computed output, a parameter, or a fresh data buffer.
  VariablePtr input_variable(const std::string& name, size_t index) {
    auto it = built_.variables.find(name);
    if (it != built_.variables.end()) return it->second;
    const Variable& v = declared(name, "input");
    auto producer = producer_.find(name);
    if (producer != producer_.end()) {
      NN_CHECK(producer->second != index) << "input " << quoted(name) << " is also its own output (a cycle)";
      NN_FAIL(ErrorCode::kInvalid) << "input " << quoted(name) << " is produced by a later function (#"
                                   << producer->second << "); the functions are not in topological order";
    }
    Shape shape = concrete_shape(v, built_.batch_size, network_.name);
    VariablePtr var;
    if (v.type == "Parameter") {
      var = params_.get_or_create(name, shape, v.initializer, rng_);
    } else {
      var = nn::Variable::create(shape, false);
      var->set_name(name);
      var->data()->zero();
    }
    built_.variables[name] = var;
    return var;
  }

  void build_function(const Function& f, size_t index) {
    with_context("network " + quoted(network_.name), [&] {
      with_context(ir::label(f, index), [&] {
        std::vector<VariablePtr> inputs;
        for (const auto& name : f.inputs) inputs.push_back(input_variable(name, index));
        FunctionSpec spec = resolve_function(f, inputs, built_.batch_size, options_.training);
        std::vector<VariablePtr> outputs;
        if (lowers_channel_last(spec)) {
          outputs = connect_channel_last(spec, inputs, options_.context);
        } else {
          FunctionPtr fn = OpRegistry::instance().create(spec.type, spec.attrs, options_.context);
          fn->set_subgraphs(build_subgraphs(f, options_));
          outputs = connect_outputs(fn, inputs, f);
          if (!outputs.empty() && outputs.front()->parent()) outputs.front()->parent()->name = f.name;
          if (options_.run_while_building) run_once(*fn, inputs, outputs);
        }
        bind_outputs(f, outputs);
      });
    });
  }

  std::vector<VariablePtr> connect_outputs(const FunctionPtr& fn, const std::vector<VariablePtr>& inputs,
                                           const Function& f) {
    // connect() adds "function 'name' (Type)" itself; our own context already names the function.
    try {
      if (options_.run_while_building) {  // stand-in values that a setup refuses: the file's shapes until it runs
        std::vector<Shape> declared_shapes;
        for (const auto& name : f.outputs)
          declared_shapes.push_back(concrete_shape(declared(name, "output"), built_.batch_size, network_.name));
        return connect_or_defer(fn, inputs, declared_shapes);
      }
      return connect(fn, inputs, "");
    } catch (Error& e) {
      throw Error(e.code(), strip_type_context(e.what(), fn->type()));
    }
  }

  // Runs fn on the values its inputs hold while building; values it cannot take (stand-ins) leave its outputs
  // as set up.
  static void run_once(nn::Function& fn, const std::vector<VariablePtr>& inputs,
                       const std::vector<VariablePtr>& outputs) {
    if (fn.setup_input_shapes().size() != inputs.size()) return;  // its setup waits for real values
    Variables in, out;
    for (const auto& v : inputs) in.push_back(v.get());
    for (const auto& v : outputs) out.push_back(v.get());
    try {
      fn.forward(in, out);
    } catch (const Error&) {
    }
  }

  static std::string strip_type_context(const std::string& message, const std::string& type) {
    const std::string prefix = type + ": ";
    return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
  }

  void bind_outputs(const Function& f, const std::vector<VariablePtr>& outputs) {
    NN_CHECK(outputs.size() == f.outputs.size())
        << "the file names " << f.outputs.size() << " outputs, the function produces " << outputs.size();
    // Sizes that follow the data (NonZero's output and what is computed from it) are known only when it runs.
    bool follows_data =
        !outputs.empty() && outputs[0]->parent() && outputs[0]->parent()->function().output_size_follows_data();
    for (const auto& in : f.inputs) follows_data = follows_data || data_sized_.count(in) > 0;
    if (follows_data) data_sized_.insert(f.outputs.begin(), f.outputs.end());
    for (size_t j = 0; j < outputs.size(); ++j) {
      const std::string& name = f.outputs[j];
      const Variable& v = declared(name, "output");
      NN_CHECK(!built_.variables.count(name)) << "output " << quoted(name) << " is already defined earlier";
      Shape expected = concrete_shape(v, built_.batch_size, network_.name);
      const Shape& got = outputs[j]->shape();
      // Old NNP files (nnabla 1.0) declare intermediate buffers without a shape: nothing to check.
      NN_CHECK(v.shape.empty() || follows_data || shape_size(expected) == shape_size(got))
          << "output " << quoted(name) << " is declared with shape " << to_string(expected)
          << " but the function computes " << to_string(got);
      if (!v.shape.empty() && expected != got) {
        NN_LOG_DEBUG << "network " << quoted(network_.name) << ": variable " << quoted(name) << " declared "
                     << to_string(expected) << ", computed " << to_string(got) << " (same size, kept)";
      }
      outputs[j]->set_name(name);
      built_.variables[name] = outputs[j];
    }
  }

  void collect_inputs_outputs() {
    std::set<std::string> read, produced;
    for (const auto& f : network_.functions) {
      read.insert(f.inputs.begin(), f.inputs.end());
      produced.insert(f.outputs.begin(), f.outputs.end());
    }
    for (const auto& v : network_.variables) {
      if (v.type != "Parameter" && read.count(v.name) && !produced.count(v.name)) built_.inputs.push_back(v.name);
      if (produced.count(v.name) && !read.count(v.name)) built_.outputs.push_back(v.name);
    }
  }

  const Network& network_;
  ParameterStore& params_;
  const BuildOptions& options_;
  RandomEngine rng_;
  BuiltNetwork built_;
  std::set<std::string> data_sized_;  // variables whose size follows the data (see bind_outputs)
  std::map<std::string, size_t> producer_;
};

}  // namespace

BuiltNetwork build_network(const Network& network, ParameterStore& params, const BuildOptions& options) {
  return NetworkBuilder(network, params, options).build();
}

}  // namespace nn::ir
