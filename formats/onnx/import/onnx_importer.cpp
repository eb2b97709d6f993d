// ONNX graph walk: opset and operator checks, initializers, inputs, one rule per node, executor exec_0.
#include "formats/common/out_of_memory.hpp"
#include "formats/onnx/import/onnx_importer.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "formats/onnx/common/onnx_model_file.hpp"
#include "formats/onnx/import/op_rules.hpp"
#include "formats/passes/symbolic_batch.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nn::formats::onnx {

namespace {
std::string quoted(const std::string& s) { return "'" + s + "'"; }
}  // namespace

namespace {
// Operators whose output 0 has the element type of input `from` (ONNX's T -> T): an integer input (indices, shape
// arithmetic) keeps its type through them, so a later Div truncates and a Cast is known to keep values. Rules that
// set a type themselves are left as they are.
void keep_element_type(ImportContext& ctx, const ::onnx::NodeProto& node) {
  static const std::set<std::string> kSameType = {"Gather",
                                                  "GatherND",
                                                  "GatherElements",
                                                  "Reshape",
                                                  "Squeeze",
                                                  "Unsqueeze",
                                                  "Flatten",
                                                  "Transpose",
                                                  "Concat",
                                                  "Slice",
                                                  "Split",
                                                  "Tile",
                                                  "Expand",
                                                  "Pad",
                                                  "TopK",
                                                  "Max",
                                                  "Min",
                                                  "Neg",
                                                  "Abs",
                                                  "Relu",
                                                  "Add",
                                                  "Sub",
                                                  "Mul",
                                                  "ReduceMax",
                                                  "ReduceMin",
                                                  "ReduceSum",
                                                  "ReduceProd",
                                                  "Where",
                                                  "ScatterElements",
                                                  "ScatterND",
                                                  "Compress",
                                                  "Identity"};
  if (!kSameType.count(node.op_type()) || node.input_size() == 0) return;
  const int from = node.op_type() == "Where" ? 1 : 0;
  if (node.input_size() <= from || node.input(from).empty() || !ctx.has(node.input(from))) return;
  const int32_t type = ctx.data_type(node.input(from));
  if (type == ::onnx::TensorProto::FLOAT) return;
  const int outputs = node.op_type() == "Split" ? node.output_size() : 1;
  for (int j = 0; j < outputs; ++j) {
    const std::string& out = node.output(j);
    if (out.empty() || !ctx.has(out) || ctx.aliased(out)) continue;
    if (ctx.data_type(out) == ::onnx::TensorProto::FLOAT) ctx.set_data_type(out, type);
  }
}
}  // namespace

void import_nodes(ImportContext& ctx, const ::onnx::GraphProto& graph) {
  for (const auto& node : graph.node()) {
    const std::string label =
        "node " + quoted(node.name().empty() ? node.output_size() ? node.output(0) : "" : node.name()) + " (" +
        node.op_type() + ")";
    with_context(label, [&] {
      for (const auto& in : node.input())
        NN_CHECK(in.empty() || ctx.has(in))
            << "input " << quoted(in) << " is neither a graph input, an initializer nor an earlier node's output";
      ctx.begin_node(node);
      find_import_rule(node.op_type(), ctx.opset())->fn(ctx, NodeView(node));
      keep_element_type(ctx, node);
    });
  }
}

namespace {

bool default_domain(const std::string& d) { return d.empty() || d == "ai.onnx"; }

std::string dims_text(const ::onnx::TensorShapeProto& shape) {
  std::string text;
  for (const auto& d : shape.dim())
    text += (text.empty() ? "" : ", ") + (d.has_dim_value()       ? std::to_string(d.dim_value())
                                          : d.dim_param().empty() ? std::string("?")
                                                                  : d.dim_param());
  return "(" + text + ")";
}

// An input given a shape takes it: same number of dims, the file's fixed dims kept.
Shape given_shape(const ::onnx::ValueInfoProto& info, const Shape& given) {
  const auto& shape = info.type().tensor_type().shape();
  bool fits = int(given.size()) == shape.dim_size();
  for (int d = 0; fits && d < shape.dim_size(); ++d)
    fits = given[size_t(d)] > 0 && (!shape.dim(d).has_dim_value() || shape.dim(d).dim_value() == given[size_t(d)]);
  NN_CHECK_CODE(fits, ErrorCode::kUsage) << "graph input " << quoted(info.name()) << " of shape "
                                         << dims_text(shape) << " cannot take the shape " << to_string(given);
  return given;
}

// Symbolic (dim_param) or unknown dims are traced as `symbolic` and declared -1, unless `shapes` fixes them.
void add_graph_input(ImportContext& ctx, const ::onnx::ValueInfoProto& info, int64_t symbolic,
                     const InputShapes& shapes) {
  NN_CHECK_CODE(info.type().has_tensor_type(), ErrorCode::kUnsupported)
      << "graph input " << quoted(info.name()) << " is not a tensor (sequences and maps are not supported)";
  const auto& tt = info.type().tensor_type();
  if (auto it = shapes.find(info.name()); it != shapes.end()) {
    const Shape shape = given_shape(info, it->second);
    ctx.add_input(info.name(), shape, shape, tt.elem_type());
    return;
  }
  Shape static_shape, declared;
  for (const auto& d : tt.shape().dim()) {
    if (d.has_dim_value()) {
      NN_CHECK(d.dim_value() >= 0) << "graph input " << quoted(info.name()) << ": negative dim " << d.dim_value();
      static_shape.push_back(d.dim_value());
      declared.push_back(d.dim_value());
    } else {
      static_shape.push_back(symbolic);
      declared.push_back(-1);
    }
  }
  ctx.add_input(info.name(), static_shape, declared, tt.elem_type());
}

// The graph inputs that are not initializers (IR < 4 files list every initializer as an input too).
std::vector<const ::onnx::ValueInfoProto*> data_inputs(const ::onnx::ModelProto& model) {
  std::set<std::string> initializers;
  for (const auto& init : model.graph().initializer()) initializers.insert(init.name());
  std::vector<const ::onnx::ValueInfoProto*> inputs;
  for (const auto& info : model.graph().input())
    if (!initializers.count(info.name())) inputs.push_back(&info);
  return inputs;
}

// The tensor inputs with a dim without a fixed value that `shapes` does not give.
std::vector<const ::onnx::ValueInfoProto*> free_inputs(const ::onnx::ModelProto& model,
                                                       const InputShapes& shapes) {
  std::vector<const ::onnx::ValueInfoProto*> free;
  for (const auto* info : data_inputs(model)) {
    if (!info->type().has_tensor_type() || shapes.count(info->name())) continue;
    const auto& dims = info->type().tensor_type().shape().dim();
    if (std::any_of(dims.begin(), dims.end(), [](const auto& d) { return !d.has_dim_value(); }))
      free.push_back(info);
  }
  return free;
}

bool has_symbolic_dims(const ::onnx::ModelProto& model, const InputShapes& shapes) {
  return !free_inputs(model, shapes).empty();
}

// `release`, when given, is `model` itself, whose initializers' data is freed as soon as it is read (the last
// walk over a model nothing reads again): a model's weights are then held once at a time, not twice.
ir::Model import_graph(const ::onnx::ModelProto& model, const std::string& base_dir, int64_t symbolic,
                       const InputShapes& shapes, ::onnx::ModelProto* release = nullptr,
                       const std::set<std::string>& at_run_time = {}) {
  const int64_t opset = default_opset(model);
  const auto& graph = model.graph();
  const std::string graph_name = graph.name().empty() ? std::string("network") : graph.name();
  ImportContext ctx(graph_name, opset, base_dir);
  ctx.set_symbolic_batch(has_symbolic_dims(model, shapes));
  ctx.compute_at_run_time(at_run_time);

  std::set<std::string> initializer_names, input_names;
  for (const auto& init : graph.initializer()) initializer_names.insert(init.name());
  bool has_data_input = false;
  for (const auto& info : graph.input()) {
    input_names.insert(info.name());
    has_data_input = has_data_input || !initializer_names.count(info.name());
  }
  for (int i = 0; i < graph.initializer_size(); ++i) {
    const auto& init = graph.initializer(i);
    TensorData t = with_context("initializer " + quoted(init.name()), [&] { return read_tensor(init, base_dir); });
    // From IR version 4 on, an initializer also listed as a graph input is an overridable default: kept as a
    // parameter, never folded away. Before IR 4 every initializer had to be listed (CNTK's mnist-8, whose
    // classifier weight is a Reshape of one): there the listing says nothing and the initializer folds like any
    // constant, unless every graph input is an initializer (the data itself is carried that way).
    const bool overridable = input_names.count(init.name()) && (model.ir_version() >= 4 || !has_data_input);
    ctx.add_constant(init.name(), t.shape, std::move(t.values), std::move(t.ints), t.data_type, !overridable);
    if (release) {  // swapped with one that holds only the name, which then frees the data
      ::onnx::TensorProto name_only;
      name_only.set_name(init.name());
      release->mutable_graph()->mutable_initializer(i)->Swap(&name_only);
    }
  }
  std::vector<std::string> inputs, outputs;
  for (const auto& info : graph.input()) {
    if (initializer_names.count(info.name())) continue;  // initializers listed as inputs (IR < 4 style)
    add_graph_input(ctx, info, symbolic, shapes);
    inputs.push_back(info.name());
  }
  import_nodes(ctx, graph);
  for (const auto& info : graph.output()) {
    NN_CHECK(ctx.has(info.name())) << "graph output " << quoted(info.name()) << " is never computed";
    outputs.push_back(info.name());
  }
  return ctx.finish(inputs, outputs);
}

}  // namespace

std::vector<std::string> unsupported_operators(const ::onnx::ModelProto& model) {
  const int64_t opset = default_opset(model);
  std::vector<std::string> missing;
  std::set<std::string> seen;
  // The graph's nodes and those of the subgraphs they hold (If's branches), depth first.
  std::vector<const ::onnx::GraphProto*> graphs{&model.graph()};
  for (size_t g = 0; g < graphs.size() && g < 10000; ++g) {
    for (const auto& node : graphs[g]->node()) {
      for (const auto& a : node.attribute())
        if (a.has_g()) graphs.push_back(&a.g());
      if (default_domain(node.domain()) && find_import_rule(node.op_type(), opset)) continue;
      const std::string entry = quoted(node.op_type()) + " (domain " +
                                quoted(node.domain().empty() ? "ai.onnx" : node.domain()) + ", opset " +
                                std::to_string(opset) + ")";
      if (seen.insert(entry).second) missing.push_back(entry);
    }
  }
  return missing;
}

namespace {
// How to fix the free dims a batch-1/batch-2 trace cannot merge: the option and the inputs that have them.
std::string free_dims_remedy(const ::onnx::ModelProto& model, const InputShapes& shapes) {
  std::string free;
  for (const auto* info : free_inputs(model, shapes))
    free +=
        (free.empty() ? "" : ", ") + quoted(info->name()) + " " + dims_text(info->type().tensor_type().shape());
  return "give its dynamic axes fixed sizes with --input-shape NAME=d0,d1,... (free: " + free +
         "), or .npy inputs to infer";
}

// The batch of a model imported at given shapes (profile's throughput, infer's samples): dim 0 of the first input
// whose dim 0 the file leaves free, else 1 as for any fixed-shape file.
int64_t given_batch(const ::onnx::ModelProto& model, const InputShapes& shapes) {
  for (const auto& info : model.graph().input()) {
    auto it = shapes.find(info.name());
    if (it == shapes.end() || it->second.empty()) continue;
    const auto& dims = info.type().tensor_type().shape().dim();
    if (!dims.empty() && !dims[0].has_dim_value()) return it->second[0];
  }
  return 1;
}

// Says (at -v) which dims of the file the given shapes fixed: "ONNX: input 'x' (batch, sequence, 4) fixed at
// (2, 8, 4)"; what an NNP, NNB or TFLite written from the import holds in place of the file's dynamic axes.
void log_fixed_dims(const ::onnx::ModelProto& model, const InputShapes& shapes) {
  for (const auto* info : free_inputs(model, {})) {
    auto it = shapes.find(info->name());
    if (it == shapes.end()) continue;
    NN_LOG_VERBOSE << "ONNX: input " << quoted(info->name()) << " "
                   << dims_text(info->type().tensor_type().shape()) << " fixed at " << to_string(it->second);
  }
}

// Every name of `shapes` must be a graph input that is not an initializer.
void check_shape_names(const ::onnx::ModelProto& model, const InputShapes& shapes) {
  std::set<std::string> inputs;
  std::string names;
  for (const auto* info : data_inputs(model)) {
    inputs.insert(info->name());
    names += (names.empty() ? "" : ", ") + quoted(info->name());
  }
  for (const auto& [name, shape] : shapes)
    NN_CHECK_CODE(inputs.count(name), ErrorCode::kUsage)
        << "the graph has no input " << quoted(name) << " (its inputs: " << names << ")";
}

ir::Model import_checked(const ::onnx::ModelProto& model, const std::string& base_dir, ::onnx::ModelProto* release,
                         const InputShapes& shapes, const std::set<std::string>& at_run_time = {}) {
  const std::vector<std::string> missing = unsupported_operators(model);
  if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    NN_FAIL(ErrorCode::kUnsupported) << "op_type " << missing.front()
                                     << " is currently not supported for NNP conversion (unsupported: " << list
                                     << ")";
  }
  check_shape_names(model, shapes);
  log_fixed_dims(model, shapes);
  if (!has_symbolic_dims(model, shapes)) {
    ir::Model fixed = import_graph(model, base_dir, 1, shapes, release, at_run_time);
    fixed.networks[0].batch_size = given_batch(model, shapes);
    return fixed;
  }
  // Traced at batch 1 and 2: dims that follow the symbolic size become -1 (any -b at run time).
  ir::Model batch1 = import_graph(model, base_dir, 1, shapes);
  return merge_symbolic_batch(std::move(batch1), import_graph(model, base_dir, 2, shapes, release),
                              free_dims_remedy(model, shapes));
}
}  // namespace

ir::Model import_model_proto(const ::onnx::ModelProto& model, const std::string& base_dir,
                             const InputShapes& shapes) {
  return import_checked(model, base_dir, nullptr, shapes);
}

ir::Model import_model(const std::string& path, const InputShapes& shapes,
                       const std::set<std::string>& at_run_time) {
  ::onnx::ModelProto model = load_model_proto(path);
  const std::string base_dir = std::filesystem::path(path).parent_path().string();
  return naming_out_of_memory(quoted(path), [&] {
    return with_context(quoted(path), [&] {
      return import_checked(model, base_dir.empty() ? "." : base_dir, &model, shapes, at_run_time);
    });
  });
}

}  // namespace nn::formats::onnx
