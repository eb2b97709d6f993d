// ONNX sub-graphs imported as ir::SubNetworks: the outer values they read become inputs of the function.
#include "formats/onnx/import/import_subgraph.hpp"

#include <set>

#include "formats/onnx/common/onnx_model_file.hpp"
#include "formats/onnx/import/op_rules.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::onnx {
namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// Names `graph` (and the graphs inside it) reads without defining them, in first-use order.
void free_names(const ::onnx::GraphProto& graph, std::vector<std::string>& out) {
  std::set<std::string> defined;
  for (const auto& i : graph.input()) defined.insert(i.name());
  for (const auto& i : graph.initializer()) defined.insert(i.name());
  for (const auto& n : graph.node()) defined.insert(n.output().begin(), n.output().end());
  auto add = [&](const std::string& name) {
    if (!name.empty() && !defined.count(name) && std::find(out.begin(), out.end(), name) == out.end())
      out.push_back(name);
  };
  for (const auto& n : graph.node()) {
    for (const auto& in : n.input()) add(in);
    for (const auto& a : n.attribute()) {
      std::vector<std::string> inner;
      if (a.has_g()) free_names(a.g(), inner);
      for (const auto& g : a.graphs()) free_names(g, inner);
      for (const auto& name : inner) add(name);
    }
  }
  for (const auto& o : graph.output()) add(o.name());
}

void refuse_non_tensors(const ::onnx::GraphProto& graph) {
  auto check = [](const ::onnx::ValueInfoProto& v, const char* role) {
    NN_CHECK_CODE(!v.has_type() || v.type().has_tensor_type(), ErrorCode::kUnsupported)
        << role << " " << quoted(v.name()) << " is not a tensor (sequences and optional values are not supported)";
  };
  for (const auto& v : graph.input()) check(v, "sub-graph input");
  for (const auto& v : graph.output()) check(v, "sub-graph output");
}

}  // namespace

const ::onnx::GraphProto& graph_attribute(const NodeView& node, const std::string& name) {
  for (const auto& a : node.proto().attribute())
    if (a.name() == name && a.has_g()) return a.g();
  NN_FAIL(ErrorCode::kInvalid) << node.op() << " without a " << name << " graph";
}

ImportedSubGraph import_subgraph(ImportContext& ctx, const ::onnx::GraphProto& graph,
                                 const std::vector<SubGraphInput>& own) {
  refuse_non_tensors(graph);
  const std::string label = graph.name().empty() ? std::string("sub-graph") : "sub-graph " + quoted(graph.name());
  return with_context(label, [&] {
    ImportContext sub(ctx.helper_name(graph.name().empty() ? "graph" : graph.name()), ctx.opset(), ctx.base_dir());
    sub.set_shapes_at_run_time(true);
    ImportedSubGraph result;
    std::vector<std::string> inputs;
    for (const auto& in : own) {
      sub.add_input(in.name, in.shape, in.shape, in.data_type);
      inputs.push_back(in.name);
    }
    std::vector<std::string> read;
    free_names(graph, read);
    for (const auto& name : read) {
      NN_CHECK(ctx.has(name)) << "reads " << quoted(name) << ", which the outer graph does not define";
      if (ctx.is_constant(name) && !ctx.symbols(name)) {
        const bool exact = ctx.data_type(name) != ::onnx::TensorProto::FLOAT;
        sub.add_constant(name, ctx.shape(name), ctx.const_values(name),
                         exact ? ctx.stand_in_ints(name) : std::vector<int64_t>{}, ctx.data_type(name));
      } else {
        sub.add_input(name, ctx.shape(name), ctx.shape(name), ctx.data_type(name));
        inputs.push_back(name);
        result.outer_inputs.push_back(run_time_values(ctx, name));  // sizes known only at run time: computed then
      }
    }
    for (const auto& init : graph.initializer()) {
      TensorData t = read_tensor(init, ctx.base_dir());
      sub.add_constant(init.name(), t.shape, std::move(t.values), std::move(t.ints), t.data_type);
    }
    import_nodes(sub, graph);
    std::vector<std::string> outputs;
    for (const auto& o : graph.output()) {
      std::string name = o.name();
      // An input given back unchanged is copied: every output of a sub-network is computed by it.
      if (!sub.aliased(name) && !sub.is_constant(name) &&
          std::find(inputs.begin(), inputs.end(), name) != inputs.end())
        name = sub.emit("Identity", {name}, {}, {sub.helper_name(name)}, /*fold=*/false)[0];
      outputs.push_back(name);
      result.output_types.push_back(sub.data_type(name));
      result.output_shapes.push_back(sub.shape(name));
      result.output_data_axes.push_back(sub.data_axis(name));
    }
    ir::Model model = sub.finish(inputs, outputs);
    result.net = std::make_shared<ir::SubNetwork>();
    result.net->network = std::move(model.networks.at(0));
    result.net->inputs = inputs;
    result.net->outputs = outputs;
    // Its constants are the outer graph's: the function passes them in.
    for (auto& p : model.parameters) {
      result.outer_inputs.push_back(ctx.constant(p.shape, std::move(p.data)));
      result.net->inputs.push_back(p.name);
      ir::Variable* v = result.net->network.find_variable(p.name);
      NN_INTERNAL_CHECK(v != nullptr) << "sub-graph constant " << p.name;
      v->type = "Buffer";
      v->initializer = {};
    }
    return result;
  });
}

}  // namespace nn::formats::onnx
