// Structural checks of a loaded model: one producer per variable, sane declared shapes, parameter sizes.
#include "formats/passes/validate_model.hpp"

#include <unordered_map>

#include "nn/core/error.hpp"
#include "nn/ir/function_label.hpp"
#include "nn/core/shape.hpp"

namespace nn::formats {

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

void validate_network(const ir::Network& net,
                      const std::unordered_map<std::string, const ir::Parameter*>& params) {
  const std::string where = "network " + quoted(net.name);
  for (const auto& v : net.variables) {
    Shape s = v.shape;
    for (auto& d : s)
      if (d == -1) d = 1;  // the batch axis
    with_context(where, [&] { check_shape(s, "variable " + quoted(v.name)); });
    if (v.type != "Parameter") continue;
    auto p = params.find(v.name);
    if (p == params.end() || v.shape.empty()) continue;
    NN_CHECK(shape_size(p->second->shape) == shape_size(s))
        << where << ": parameter " << quoted(v.name) << " holds " << shape_size(p->second->shape) << " values "
        << to_string(p->second->shape) << " but the network declares " << to_string(v.shape);
  }
  std::unordered_map<std::string, const ir::Function*> producer;
  for (const auto& f : net.functions)
    for (const auto& out : f.outputs) {
      auto [it, fresh] = producer.emplace(out, &f);
      NN_CHECK(fresh) << where << ": " << ir::label(f) << ": output " << quoted(out)
                      << " is already the output of " << ir::label(*it->second);
    }
}

}  // namespace

void validate_model(const ir::Model& model) {
  std::unordered_map<std::string, const ir::Parameter*> params;
  for (const auto& p : model.parameters) params[p.name] = &p;
  for (const auto& net : model.networks) validate_network(net, params);
}

}  // namespace nn::formats
