// NNP -> ONNX export driver: opset choice, graph inputs/outputs, per-function rules, check and atomic write.
#include "formats/onnx/export/onnx_export.hpp"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cctype>
#include <random>
#include <map>
#include <set>

#include "formats/common/atomic_file.hpp"
#include "formats/onnx/export/onnx_emitter.hpp"
#include "formats/onnx/export/onnx_export_support.hpp"
#include "formats/passes/export_target.hpp"
#include "nn/core/error.hpp"
#include "nn/ir/function_label.hpp"
#include "nn/core/log.hpp"
#include "nn/ops/op_registry.hpp"
#include "nn/ir/function_label.hpp"

namespace nn::formats {

using onnx_export::Dialect;
using onnx_export::Emitter;

namespace {
constexpr int kMinOpset = 6;
constexpr int kMaxOpset = 17;  // the newest opset of the onnx 1.12 library the checker knows
constexpr int kDefaultIrVersion = 8;

int table_for(int opset) {
  int table = 6;
  for (int t : {7, 9, 10, 11, 13, 14, 17})
    if (t <= opset) table = t;
  return table;
}

// nnabla comparisons give 0/1 floats that arithmetic reads; ONNX's give BOOL. Every BOOL network variable read
// by a node other than a logical one gets a Cast to FLOAT in front of that node (once per variable).
void cast_bool_operands(Emitter& e, onnx::GraphProto* graph) {
  static const std::set<std::string> kTakesBool = {"And", "Or", "Xor", "Not", "Cast"};
  std::map<std::string, std::string> cast_of;
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  nodes.Swap(graph->mutable_node());
  int counter = 0;
  for (auto& node : nodes) {
    for (int i = 0; i < node.input_size(); ++i) {
      const std::string& in = node.input(i);
      if (in.empty() || kTakesBool.count(node.op_type()) || (node.op_type() == "Where" && i == 0)) continue;
      if (e.elem_type(in) != onnx::TensorProto::BOOL) continue;
      auto it = cast_of.find(in);
      if (it == cast_of.end()) {
        const std::string name = in + "_as_float_" + std::to_string(counter++);
        onnx::NodeProto* cast = graph->add_node();
        cast->set_op_type("Cast");
        cast->set_name(name);
        cast->add_input(in);
        cast->add_output(name);
        onnx_export::set_attr(cast, "to", int64_t(onnx::TensorProto::FLOAT));
        it = cast_of.emplace(in, name).first;
      }
      node.set_input(i, it->second);
    }
    *graph->add_node() = node;
  }
}

// Static dims, or with a symbolic "batch" first dim when `symbolic_batch`; `sized_by_data`: every dim unknown (the
// network's dims are one run's sizes).
void set_value_info(onnx::ValueInfoProto* info, const std::string& name, int elem_type, const Shape& dims,
                    bool symbolic_batch, bool sized_by_data = false) {
  info->set_name(name);
  auto* tensor = info->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(elem_type);
  auto* shape = tensor->mutable_shape();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (sized_by_data) {
      shape->add_dim();
    } else if (i == 0 && symbolic_batch) {
      shape->add_dim()->set_dim_param("batch");
    } else {
      shape->add_dim()->set_dim_value(dims[i]);
    }
  }
}

// The variables whose size follows the data: outputs of functions that set it at each run (NonZero, Unique, ...)
// and everything computed from them.
std::set<std::string> variables_sized_by_data(const ir::Network& network) {
  const OpRegistry& registry = OpRegistry::instance();
  std::set<std::string> sized;
  for (const ir::Function& f : network.functions) {
    bool follows = std::any_of(f.inputs.begin(), f.inputs.end(), [&](const auto& in) { return sized.count(in); });
    // A function without a kernel here (written by its rule alone) has no run-time size to follow.
    if (!follows && !registry.kernels(f.type).empty())
      follows = registry.create(f.type, f.attrs, Context{})->output_size_follows_data();
    if (follows) sized.insert(f.outputs.begin(), f.outputs.end());
  }
  return sized;
}
// A function output that is no variable, or an executor output nothing produces, would give an ONNX graph
// output no node writes (ONNX Runtime refuses it; nncli infer refuses the network too).
void check_outputs_produced(const ir::Network& network, const ir::Executor& exec) {
  std::set<std::string> produced;
  for (const ir::Function& f : network.functions) {
    for (const std::string& o : f.outputs) {
      NN_CHECK(network.find_variable(o) != nullptr) << "network '" << network.name << "': " << ir::label(f)
                                                    << ": output '" << o << "' is not a variable of the network";
      produced.insert(o);
    }
  }
  for (const ir::DataVariable& d : exec.data_variable) produced.insert(d.variable_name);
  for (const ir::GeneratorVariable& g : exec.generator_variable) produced.insert(g.variable_name);
  for (const ir::OutputVariable& o : exec.output_variable) {
    const ir::Variable* v = network.find_variable(o.variable_name);
    NN_CHECK(produced.count(o.variable_name) || (v != nullptr && v->type == "Parameter"))
        << "network '" << network.name << "': executor '" << exec.name << "': output variable '" << o.variable_name
        << "' is produced by no function";
  }
}
}  // namespace

OnnxOpset parse_onnx_opset(const std::string& define_version) {
  OnnxOpset r;
  if (define_version.empty()) return r;
  NN_CHECK_CODE(define_version.rfind("opset_", 0) == 0, ErrorCode::kUsage)
      << "-d '" << define_version << "': ONNX export needs opset_N (N = " << kMinOpset << ".." << kMaxOpset
      << "), opset_snpe or opset_tensorrt";
  std::string x = define_version.substr(6);
  if (x == "snpe" || x == "6x") return {6, 6, 1};
  if (x == "tensorrt") return {11, 11, 2};
  bool digits =
      !x.empty() && x.size() < 6 && std::all_of(x.begin(), x.end(), [](char c) { return std::isdigit(c); });
  NN_CHECK_CODE(digits, ErrorCode::kUsage) << "Currently, No support " << x;
  int v = std::stoi(x);
  NN_CHECK_CODE(v >= 1 && v <= kMaxOpset, ErrorCode::kUsage)
      << "-d " << define_version << ": opset " << v << " is out of range (supported: " << kMinOpset << ".."
      << kMaxOpset << ")";
  if (v <= kMinOpset) return {6, 6, 0};
  return {table_for(v), v, 0};
}

namespace {
// Without -d: the default opset, or the lowest above it whose rules write every function of the network (a graph
// with Einsum needs 12), logged with the function that needed it.
OnnxOpset lowest_opset_writing(const ir::Network& network, OnnxOpset opset) {
  auto first_missing = [&](int table) -> const ir::Function* {
    for (const auto& f : network.functions)
      if (!onnx_export::find_rule(f.type, table)) return &f;
    return nullptr;
  };
  const ir::Function* needs = first_missing(opset.table);
  if (!needs) return opset;
  for (int v = opset.version + 1; v <= kMaxOpset; ++v) {
    if (first_missing(table_for(v))) continue;
    NN_LOG_INFO << "ONNX: opset " << v << ", the lowest that writes every function (" << needs->type
                << " needs it; "
                << "-d opset_N chooses another)";
    return {table_for(v), v, 0};
  }
  return opset;  // no opset writes them all: the export names what is missing
}

// The batch size written for an executor input that has nnabla's batch -1 in the model (0 when none has).
int64_t fixed_batch_of_symbolic_input(const ir::Network& source, const ir::Network& written,
                                      const ir::Executor& exec) {
  for (const auto& d : exec.data_variable) {
    const ir::Variable* v = source.find_variable(d.variable_name);
    const ir::Variable* w = written.find_variable(d.variable_name);
    if (v && w && !v->shape.empty() && v->shape[0] == -1 && !w->shape.empty()) return w->shape[0];
  }
  return 0;
}
}  // namespace

void build_onnx_model(const ir::Model& model, const OnnxExportOptions& options, onnx::ModelProto* out) {
  OnnxOpset opset = parse_onnx_opset(options.define_version);
  if (options.dynamic_batch) {
    NN_LOG_INFO << "ONNX: symbolic batch dimension (traced at batch size 1).";
  }
  ExportTargetOptions target_options;
  target_options.format = "ONNX";
  target_options.executor = options.executor;
  target_options.batch_size = options.dynamic_batch ? 1 : options.batch_size;
  const ExportTarget target = export_target(model, target_options);
  const ir::Executor* exec = target.executor;
  const ir::Network* source = target.source;
  const ir::Network& network = target.network;
  check_outputs_produced(network, *exec);
  if (const int64_t fixed = options.dynamic_batch ? 0 : fixed_batch_of_symbolic_input(*source, network, *exec))
    NN_LOG_INFO << "ONNX: the batch (-1) is written fixed at " << fixed
                << " (-b), --dynamic-batch keeps it symbolic";
  if (options.define_version.empty()) opset = lowest_opset_writing(network, opset);

  out->set_ir_version(options.ir_version > 0 ? options.ir_version : kDefaultIrVersion);
  out->set_producer_name("nnabla-onnx");
  out->set_producer_version("0.1");
  out->set_domain("org.nnabla");
  auto* import = out->add_opset_import();
  import->set_domain("");
  import->set_version(opset.version);
  onnx::GraphProto* graph = out->mutable_graph();
  Emitter emitter(model, network, graph, opset.table, static_cast<Dialect>(opset.dialect));
  if (options.dynamic_batch) emitter.set_dynamic_batch(*source);

  // Every function without a rule at this table or with arguments its rule cannot write, reported together.
  convert_each_function(network, "ONNX", [&](const ir::Function& f) {
    const onnx_export::Rule* rule = onnx_export::find_rule(f.type, opset.table);
    NN_CHECK_CODE(rule != nullptr, ErrorCode::kUnsupported) << "not supported at opset " << opset.version;
    rule->emit(emitter, f);
  });
  cast_bool_operands(emitter, graph);
  graph->set_name(network.name);
  emitter.write_parameters();
  // Generator variables become initializers (Constant: the multiplier; Normal/Uniform: seeded noise).
  std::mt19937 rng(0);
  for (const ir::GeneratorVariable& g : exec->generator_variable) {
    const Shape& dims = emitter.shape(g.variable_name);
    std::vector<float> data(shape_size(dims), float(g.multiplier));
    if (g.type == "Normal") {
      std::normal_distribution<float> dist(0.0f, float(g.multiplier));
      for (float& v : data) v = dist(rng);
    } else if (g.type == "Uniform") {
      std::uniform_real_distribution<float> dist(-float(g.multiplier), float(g.multiplier));
      for (float& v : data) v = dist(rng);
    }
    emitter.named_float_initializer(g.variable_name, data, dims);
  }
  for (const ir::DataVariable& d : exec->data_variable)
    set_value_info(graph->add_input(), d.variable_name, emitter.elem_type(d.variable_name),
                   emitter.shape(d.variable_name),
                   emitter.dynamic_batch() && emitter.has_batch_axis(d.variable_name));
  const std::set<std::string> sized_by_data = variables_sized_by_data(network);
  for (const ir::OutputVariable& o : exec->output_variable)
    set_value_info(graph->add_output(), o.variable_name, emitter.elem_type(o.variable_name),
                   emitter.shape(o.variable_name),
                   emitter.dynamic_batch() && emitter.has_batch_axis(o.variable_name),
                   sized_by_data.count(o.variable_name) > 0);
}

void check_onnx_model(onnx::ModelProto& proto, const std::string& what) {
  try {
    onnx::checker::check_model(proto);
    onnx::ShapeInferenceOptions strict(false, 1, false);
    onnx::shape_inference::InferShapes(proto, onnx::OpSchemaRegistry::Instance(), strict);
  } catch (const std::exception& e) {
    NN_FAIL(ErrorCode::kInternal) << what << ": the written ONNX model fails onnx's checks: " << e.what();
  }
}

void save_onnx(const ir::Model& model, const std::string& path, const OnnxExportOptions& options) {
  onnx::ModelProto proto;
  build_onnx_model(model, options, &proto);
  onnx::ModelProto checked = proto;
  check_onnx_model(checked, "'" + path + "'");
  std::string bytes;
  NN_CHECK(proto.SerializeToString(&bytes)) << "'" << path << "': cannot serialize the ONNX model";
  write_file_atomic(path, bytes);
}

std::vector<std::string> onnx_exportable_functions(int opset) {
  int table = opset <= kMinOpset ? 6 : table_for(opset);
  std::set<std::string> names;
  for (const onnx_export::Rule& r : onnx_export::all_rules())
    if (r.min_table <= table) names.insert(r.type);
  return {names.begin(), names.end()};
}

}  // namespace nn::formats
