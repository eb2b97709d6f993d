// Symbolic batch on import (ONNX, TFLite): two traces of the graph (batch 1 and 2) merged into -1 batch dims.
#include "formats/passes/symbolic_batch.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "nn/core/error.hpp"
#include "nn/ir/function_label.hpp"

namespace nn::formats {
namespace {

// dims of one trace vs the other: 1 vs 2 -> -1 (the batch); k vs 2k -> -1 with *folded set (the batch folded
// with other axes, as attention heads are); equal -> kept; anything else is not expressible.
Shape merged_dims(const Shape& one, const Shape& two, const std::string& what, bool* folded) {
  NN_CHECK_CODE(one.size() == two.size(), ErrorCode::kUnsupported)
      << what << ": its rank depends on the symbolic batch dimension";
  Shape out = one;
  *folded = false;
  for (size_t i = 0; i < one.size(); ++i) {
    if (one[i] == two[i]) continue;
    NN_CHECK_CODE(two[i] == 2 * one[i], ErrorCode::kUnsupported)
        << what << ": dim " << i << " is " << one[i] << " at batch 1 and " << two[i]
        << " at batch 2 (not proportional to the batch)";
    if (one[i] != 1) *folded = true;
    out[i] = -1;
  }
  return out;
}

void merge_function(ir::Function& one, const ir::Function& two) {
  NN_CHECK_CODE(one.type == two.type && one.inputs == two.inputs && one.outputs == two.outputs,
                ErrorCode::kUnsupported)
      << "function '" << one.name << "': the imported graph changes with the symbolic batch size";
  for (const auto& [name, value] : one.attrs.values()) {
    const AttrValue* other = two.attrs.find(name);
    if (other != nullptr && *other == value) continue;
    const auto* ints = std::get_if<std::vector<int64_t>>(&value);
    const auto* other_ints = other ? std::get_if<std::vector<int64_t>>(other) : nullptr;
    NN_CHECK_CODE(name == "shape" && ints && other_ints, ErrorCode::kUnsupported)
        << ir::label(one) << ": argument '" << name << "' depends on the symbolic batch size";
    bool folded = false;
    const Shape merged = merged_dims(*ints, *other_ints, "function '" + one.name + "' argument 'shape'", &folded);
    // A Reshape target with one batch-proportional dim: -1 there is inferred from the input size at run time.
    const auto varying = std::count(merged.begin(), merged.end(), int64_t(-1));
    NN_CHECK_CODE(!folded || (one.type == "Reshape" && varying == 1), ErrorCode::kUnsupported)
        << ir::label(one) << ": argument 'shape' " << to_string(*ints)
        << " folds the symbolic batch with other axes";
    one.attrs.set(name, merged);
  }
}

ir::Model merge_traces(ir::Model at_one, const ir::Model& at_two);

}  // namespace

ir::Model merge_symbolic_batch(ir::Model at_one, const ir::Model& at_two, const std::string& remedy) {
  try {
    return merge_traces(std::move(at_one), at_two);
  } catch (Error& e) {
    if (e.code() != ErrorCode::kUnsupported) throw;
    throw Error(e.code(), e.message() + "; " + remedy);
  }
}

namespace {
ir::Model merge_traces(ir::Model at_one, const ir::Model& at_two) {
  NN_CHECK(at_one.networks.size() == 1 && at_two.networks.size() == 1) << "internal: one network per import";
  ir::Network& net = at_one.networks[0];
  const ir::Network& other = at_two.networks[0];
  NN_CHECK_CODE(net.functions.size() == other.functions.size() && net.variables.size() == other.variables.size(),
                ErrorCode::kUnsupported)
      << "network '" << net.name << "': the imported graph changes with the symbolic batch size";
  std::map<std::string, const ir::Variable*> others;
  for (const auto& v : other.variables) others[v.name] = &v;
  std::vector<ir::Function> generated;
  std::set<std::string> computed;
  for (auto& v : net.variables) {
    auto it = others.find(v.name);
    NN_CHECK_CODE(it != others.end(), ErrorCode::kUnsupported)
        << "variable '" << v.name << "' exists only at batch size 1";
    const std::string what = "variable '" + v.name + "'";
    bool folded = false;
    Shape dims = merged_dims(v.shape, it->second->shape, what, &folded);
    if (v.type == "Parameter" && dims != v.shape) {
      // A batch-sized constant (ConstantOfShape of a Shape, as PyTorch writes initial states): when every
      // element is one value, a Constant function of the -1 shape computes it at any batch size.
      NN_CHECK_CODE(!folded, ErrorCode::kUnsupported)
          << what << ": a constant whose shape folds the symbolic batch";
      const ir::Parameter* p = nullptr;
      for (const auto& q : at_one.parameters)
        if (q.name == v.name) p = &q;
      const bool uniform =
          p && std::all_of(p->data.begin(), p->data.end(), [&](float x) { return x == p->data[0]; });
      NN_CHECK_CODE(uniform && !p->data.empty(), ErrorCode::kUnsupported)
          << what << ": a constant whose shape follows the symbolic batch size";
      ir::Function c;
      c.name = net.name + "/" + v.name + "/Constant";
      c.type = "Constant";
      c.outputs = {v.name};
      c.has_param = true;
      c.attrs.set("val", double(p->data[0]));
      c.attrs.set("shape", std::vector<int64_t>(dims));
      generated.push_back(std::move(c));
      computed.insert(v.name);
      v.type = "Buffer";
      v.initializer = {};
    }
    // A buffer with the batch folded into another axis is declared without a shape (computed at build).
    v.shape = folded ? Shape{} : dims;
  }
  for (size_t i = 0; i < net.functions.size(); ++i) merge_function(net.functions[i], other.functions[i]);
  net.functions.insert(net.functions.begin(), generated.begin(), generated.end());
  std::erase_if(at_one.parameters, [&](const ir::Parameter& p) { return computed.count(p.name) > 0; });
  for (auto& exec : at_one.executors)
    std::erase_if(exec.parameter_variable,
                  [&](const ir::ParameterVariable& p) { return computed.count(p.variable_name) > 0; });
  std::map<std::string, const ir::Parameter*> other_params;
  for (const auto& p : at_two.parameters) other_params[p.name] = &p;
  for (const auto& p : at_one.parameters) {
    auto it = other_params.find(p.name);
    NN_CHECK_CODE(it != other_params.end() && it->second->data == p.data, ErrorCode::kUnsupported)
        << "constant '" << p.name << "' is computed from the symbolic batch size (e.g. through Shape)";
  }
  return at_one;
}

}  // namespace

}  // namespace nn::formats
