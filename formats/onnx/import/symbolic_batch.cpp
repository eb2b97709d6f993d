// Symbolic batch on ONNX import: two traces of the graph (batch 1 and 2) merged into -1 batch dims.
#include "formats/onnx/import/symbolic_batch.hpp"

#include <map>

#include "nn/core/error.hpp"

namespace nn::formats::onnx {
namespace {

// dims of one trace vs the other: 1 vs 2 -> -1; equal -> kept; anything else is not expressible.
Shape merged_dims(const Shape& one, const Shape& two, const std::string& what) {
  NN_CHECK_CODE(one.size() == two.size(), ErrorCode::kUnsupported)
      << what << ": its rank depends on the symbolic batch dimension";
  Shape out = one;
  for (size_t i = 0; i < one.size(); ++i) {
    if (one[i] == two[i]) continue;
    NN_CHECK_CODE(one[i] == 1 && two[i] == 2, ErrorCode::kUnsupported)
        << what << ": dim " << i << " is " << one[i] << " at batch 1 and " << two[i]
        << " at batch 2 (the batch is folded with other axes); give the ONNX file a fixed batch size";
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
        << "function '" << one.name << "' (" << one.type << "): argument '" << name
        << "' depends on the symbolic batch size";
    one.attrs.set(name, merged_dims(*ints, *other_ints, "function '" + one.name + "' argument 'shape'"));
  }
}

}  // namespace

ir::Model merge_symbolic_batch(ir::Model at_one, const ir::Model& at_two) {
  NN_CHECK(at_one.networks.size() == 1 && at_two.networks.size() == 1) << "internal: one network per import";
  ir::Network& net = at_one.networks[0];
  const ir::Network& other = at_two.networks[0];
  NN_CHECK_CODE(net.functions.size() == other.functions.size() && net.variables.size() == other.variables.size(),
                ErrorCode::kUnsupported)
      << "network '" << net.name << "': the imported graph changes with the symbolic batch size";
  std::map<std::string, const ir::Variable*> others;
  for (const auto& v : other.variables) others[v.name] = &v;
  for (auto& v : net.variables) {
    auto it = others.find(v.name);
    NN_CHECK_CODE(it != others.end(), ErrorCode::kUnsupported)
        << "variable '" << v.name << "' exists only at batch size 1";
    const std::string what = "variable '" + v.name + "'";
    Shape dims = merged_dims(v.shape, it->second->shape, what);
    NN_CHECK_CODE(v.type != "Parameter" || dims == v.shape, ErrorCode::kUnsupported)
        << what << ": a constant whose shape follows the symbolic batch size";
    v.shape = dims;
  }
  for (size_t i = 0; i < net.functions.size(); ++i) merge_function(net.functions[i], other.functions[i]);
  std::map<std::string, const ir::Parameter*> other_params;
  for (const auto& p : at_two.parameters) other_params[p.name] = &p;
  for (const auto& p : at_one.parameters) {
    auto it = other_params.find(p.name);
    NN_CHECK_CODE(it != other_params.end() && it->second->data == p.data, ErrorCode::kUnsupported)
        << "constant '" << p.name << "' is computed from the symbolic batch size (e.g. through Shape)";
  }
  return at_one;
}

}  // namespace nn::formats::onnx
