// NNP -> TFLite export driver: executor choice, batch, graph inputs/outputs in NHWC, per-function rules.
#include "formats/tflite/tflite_export.hpp"

#include <numeric>
#include <set>

#include "formats/common/atomic_file.hpp"
#include "formats/passes/batch_size.hpp"
#include "formats/passes/export_target.hpp"
#include "formats/passes/fill_shapes.hpp"
#include "formats/tflite/tflite_exporter.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nn::formats {
namespace tflite_export {

Perm identity_perm(size_t rank) {
  Perm p(rank);
  std::iota(p.begin(), p.end(), 0);
  return p;
}
Perm channel_last_perm(size_t rank) {
  Perm p = identity_perm(rank);
  if (rank >= 3) {
    p.erase(p.begin() + 1);
    p.push_back(1);
  }
  return p;
}
bool is_identity(const Perm& p) { return p == identity_perm(p.size()); }
Shape permute(const Shape& s, const Perm& p) {
  Shape r(p.size());
  for (size_t i = 0; i < p.size(); ++i) r[i] = s.at(size_t(p[i]));
  return r;
}

Exporter::Exporter(const ir::Model& model, const ir::Network& network, const ir::Executor& executor)
    : model_(model), network_(network) {
  for (const ir::Function& f : network.functions)
    for (const std::string& in : f.inputs) consumers_[in].push_back(&f);
  for (const ir::OutputVariable& o : executor.output_variable) outputs_.insert(o.variable_name);
}

const Shape& Exporter::shape(const std::string& var) const {
  const ir::Variable* v = network_.find_variable(var);
  NN_CHECK(v != nullptr) << "variable '" << var << "' is not declared in network '" << network_.name << "'";
  return v->shape;
}

bool Exporter::is_parameter(const std::string& var) const { return model_.find_parameter(var) != nullptr; }

const ir::Parameter& Exporter::parameter(const std::string& var) const {
  const ir::Parameter* p = model_.find_parameter(var);
  NN_CHECK(p != nullptr) << "'" << var << "' must be a parameter with data for TFLite export";
  NN_CHECK(int64_t(p->data.size()) == shape_size(shape(var)))
      << "parameter '" << var << "' has " << p->data.size() << " values for shape " << shape(var);
  return *p;
}

Value Exporter::value(const std::string& var) {
  auto it = values_.find(var);
  if (it != values_.end()) return it->second;
  const ir::Parameter& p = parameter(var);
  Value v{graph_.const_float(var, shape(var), p.data), identity_perm(shape(var).size())};
  values_[var] = v;
  return v;
}

int Exporter::transpose(int tensor, const Perm& perm, const std::string& name) {
  std::vector<int32_t> p(perm.begin(), perm.end());
  int pt = graph_.const_int32(fresh(name + "/perm"), {int64_t(p.size())}, p);
  Shape s = permute(graph_.shape(tensor), perm);
  int out = graph_.tensor(fresh(name), s);
  graph_.op(tflite_io::BuiltinOp::TRANSPOSE, {tensor, pt}, {out}, tflite::BuiltinOptionsUnion{});
  return out;
}

int Exporter::in_order(const std::string& var, const Perm& perm) {
  Value v = value(var);
  if (v.perm == perm) return v.tensor;
  NN_CHECK(v.perm.size() == perm.size()) << "'" << var << "': rank " << v.perm.size() << " vs " << perm.size();
  // TFLite axis i of the result is nnabla axis perm[i], found at TFLite axis inv[perm[i]] of v.
  Perm inv(perm.size());
  for (size_t i = 0; i < v.perm.size(); ++i) inv[size_t(v.perm[i])] = int(i);
  Perm t(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) t[i] = inv[size_t(perm[i])];
  std::string key = var + "@" + std::to_string(perm.size());
  for (int a : perm) key += "," + std::to_string(a);
  auto it = values_.find(key);
  if (it != values_.end()) return it->second.tensor;
  int out;
  if (is_parameter(var) && is_identity(v.perm)) {  // a constant: store it permuted
    const Shape& s = shape(var);
    const std::vector<float>& src = parameter(var).data;
    Shape ps = permute(s, perm);
    Shape src_strides = shape_strides(s);
    std::vector<float> dst(src.size());
    std::vector<int64_t> idx(ps.size(), 0);
    for (size_t n = 0; n < dst.size(); ++n) {
      int64_t off = 0;
      for (size_t i = 0; i < ps.size(); ++i) off += idx[i] * src_strides[size_t(perm[i])];
      dst[n] = src[size_t(off)];
      for (size_t i = ps.size(); i-- > 0;) {
        if (++idx[i] < ps[i]) break;
        idx[i] = 0;
      }
    }
    out = graph_.const_float(fresh(var + "/nhwc"), ps, dst);
  } else {
    out = transpose(v.tensor, t, var + "/transposed");
  }
  values_[key] = Value{out, perm};
  return out;
}

int Exporter::define(const std::string& var, const Perm& perm) {
  int t = graph_.tensor(var, permute(shape(var), perm));
  values_[var] = Value{t, perm};
  return t;
}

const ir::Function* Exporter::sole_consumer(const std::string& var) const {
  if (outputs_.count(var)) return nullptr;
  auto it = consumers_.find(var);
  if (it == consumers_.end() || it->second.size() != 1) return nullptr;
  return it->second[0];
}

namespace {
std::map<std::string, Rule>& rules() {
  static std::map<std::string, Rule> r = [] {
    std::map<std::string, Rule> m;
    add_layer_rules(m);
    add_elementwise_rules(m);
    add_shape_rules(m);
    add_deconvolution_rules(m);
    return m;
  }();
  return r;
}
}  // namespace

const Rule* find_rule(const std::string& type) {
  auto it = rules().find(type);
  return it == rules().end() ? nullptr : &it->second;
}
std::vector<std::string> rule_names() {
  std::vector<std::string> names;
  for (const auto& [name, rule] : rules()) names.push_back(name);
  return names;
}

}  // namespace tflite_export

using tflite_export::Exporter;
using tflite_export::Perm;

namespace {

// The float graph of the executor's network (at the batch size the network already has).
tflite::ModelT export_graph(const ir::Model& model, const ir::Executor& exec, const ir::Network& network,
                            bool channel_last) {
  NN_CHECK_CODE(exec.generator_variable.empty(), ErrorCode::kUnsupported)
      << "executor '" << exec.name << "': generator variables cannot be exported to TFLite";

  Exporter ex(model, network, exec);
  // The graph's inputs and outputs: rank 4 in NHWC, moved there from (N, C, H, W) unless already so.
  auto edge_perm = [channel_last](size_t rank) {
    return rank == 4 && !channel_last ? tflite_export::channel_last_perm(4) : tflite_export::identity_perm(rank);
  };
  std::vector<int> inputs, outputs;
  for (const ir::DataVariable& d : exec.data_variable)
    inputs.push_back(ex.define(d.variable_name, edge_perm(ex.shape(d.variable_name).size())));
  std::set<std::string> lost;  // outputs of functions that failed: their readers are not blamed for them
  convert_each_function(network, "TFLite", [&](const ir::Function& f) {
    if (ex.absorbed(f)) return;
    const tflite_export::Rule* rule = tflite_export::find_rule(f.type);
    bool reads_lost = false;
    for (const std::string& in : f.inputs) reads_lost |= lost.count(in) != 0;
    if (reads_lost && rule != nullptr) {
      lost.insert(f.outputs.begin(), f.outputs.end());
      return;
    }
    try {
      NN_CHECK_CODE(rule != nullptr, ErrorCode::kUnsupported) << "no TFLite builtin for this function";
      (*rule)(ex, f);
    } catch (const Error&) {
      lost.insert(f.outputs.begin(), f.outputs.end());
      throw;
    }
  });
  for (const ir::OutputVariable& o : exec.output_variable) {
    tflite_export::Value v = ex.value(o.variable_name);
    int t = ex.in_order(o.variable_name, edge_perm(v.perm.size()));
    bool is_input = false;
    for (int i : inputs) is_input |= i == t;
    if (ex.g().at(t).name != o.variable_name && !is_input) {
      // The output keeps its nnabla name; a tensor that holds it under another name gives it up.
      for (size_t i = 0; i < ex.g().num_tensors(); ++i)
        if (ex.g().at(int(i)).name == o.variable_name) ex.g().at(int(i)).name += "/internal";
      ex.g().at(t).name = o.variable_name;
    }
    outputs.push_back(t);
  }
  ex.g().set_io(inputs, outputs);
  return ex.g().take_model();
}

}  // namespace

std::string build_tflite_model(const ir::Model& model, const TfliteExportOptions& options) {
  ExportTargetOptions target_options;
  target_options.format = "TFLite";
  target_options.executor = options.executor;
  target_options.batch_size = options.dynamic_batch ? 1 : options.batch_size;
  const ExportTarget target = export_target(model, target_options);
  if (!options.channel_last) {
    for (const ir::Function& f : target.network.functions)
      if (f.attrs.get_bool("channel_last", false)) {
        NN_LOG_WARNING << "TFLite: function '" << f.name << "' has channel_last=true: the network's data are "
                       << "probably NHWC; --channel-last keeps its rank-4 inputs and outputs in that order";
        break;
      }
  }
  tflite::ModelT graph = export_graph(model, *target.executor, target.network, options.channel_last);
  if (options.dynamic_batch) {
    // Traced at batch 1 and 2: what differs is the batch (shape_signature -1, Reshape targets -1).
    NN_LOG_INFO << "TFLite: dynamic batch (shape 1, shape_signature -1).";
    ir::Network twice = set_batch_size(*target.source, 2);
    fill_missing_shapes(model, twice);
    tflite_export::merge_dynamic_batch(graph, export_graph(model, *target.executor, twice, options.channel_last));
  }
  if (!options.int8_ranges.empty()) tflite_export::quantize_int8(graph, options.int8_ranges, options.float_io);
  return tflite_io::pack_model(graph, "nncli " + target.network.name);
}

void save_tflite(const ir::Model& model, const std::string& path, const TfliteExportOptions& options) {
  write_file_atomic(path, build_tflite_model(model, options));
}

std::vector<std::string> tflite_exportable_functions() { return tflite_export::rule_names(); }

}  // namespace nn::formats
