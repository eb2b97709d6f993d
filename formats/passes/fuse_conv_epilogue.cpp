// Convolution -> [Add2 residual] -> [activation] becomes one FusedConvolution (see inference_passes.hpp).
#include "inference_pass_common.hpp"
#include "inference_passes.hpp"

#include <algorithm>
#include <cmath>

#include "nn/ops/op_registry.hpp"

namespace nn::formats {
using namespace pass_common;
namespace {

// FusedConvolution's nonlinearity for an activation function type ("" when it has none), and its arguments.
std::string nonlinearity_of(const ir::Function& f, std::vector<double>& args) {
  args.clear();
  if (f.inputs.size() != 1 || f.outputs.size() != 1) return "";
  if (f.type == "ReLU") return "relu";
  if (f.type == "ReLU6") return "relu6";
  if (f.type == "Sigmoid") return "sigmoid";
  if (f.type == "Tanh") return "tanh";
  if (f.type == "Swish") return "swish";
  if (f.type == "HardSigmoid") {  // nnabla's: clip(0.2 x + 0.5, 0, 1)
    args = {0.2, 0.5};
    return "hard_sigmoid";
  }
  if (f.type == "LeakyReLU" || f.type == "ELU") {  // alpha as given, else the schema's default
    args.push_back(OpRegistry::instance().get(f.type).complete(f.attrs).get_float("alpha"));
    return f.type == "ELU" ? "elu" : "leaky_relu";
  }
  return "";
}

struct Chain {
  size_t conv, add;          // function indices; add == kNoFunction when absent
  std::vector<size_t> acts;  // the activation's functions, in order (none when absent)
  std::string z, nonlinearity;
  std::vector<double> args;
};

bool is_scalar_op(const ir::Function& f, const char* type) {
  return f.type == type && f.inputs.size() == 1 && f.outputs.size() == 1;
}

// clip(alpha x + beta, 0, 1) as the ONNX importer writes HardSigmoid and HardSwish, from function `first` on:
// MulScalar(alpha), AddScalar(beta), then MinimumScalar(1) and MaximumScalar(0) in either order, each the only
// reader of the one before. Their indices (none when the chain is not there).
std::vector<size_t> clip_chain(const ir::Network& n, size_t first, const std::map<std::string, int>& uses,
                               const std::set<std::string>& interface, double& alpha, double& beta) {
  std::vector<size_t> chain{first};
  auto next = [&]() -> const ir::Function* {
    const size_t j = sole_consumer(n, n.functions[chain.back()].outputs[0], uses, interface);
    if (j == kNoFunction) return nullptr;
    chain.push_back(j);
    return &n.functions[j];
  };
  const ir::Function& mul = n.functions[first];
  if (!is_scalar_op(mul, "MulScalar")) return {};
  const ir::Function* add = next();
  if (!add || !is_scalar_op(*add, "AddScalar")) return {};
  alpha = mul.attrs.get_float("val", 1.0), beta = add->attrs.get_float("val", 0.0);
  const ir::Function* clip1 = next();
  if (!clip1) return {};
  const bool min_first = is_scalar_op(*clip1, "MinimumScalar") && clip1->attrs.get_float("val", 0) == 1.0;
  if (!min_first && !(is_scalar_op(*clip1, "MaximumScalar") && clip1->attrs.get_float("val", 1) == 0.0)) return {};
  const ir::Function* clip2 = next();
  const char* second = min_first ? "MaximumScalar" : "MinimumScalar";
  if (!clip2 || !is_scalar_op(*clip2, second) || clip2->attrs.get_float("val", -1) != (min_first ? 0.0 : 1.0))
    return {};
  return chain;
}

// x * clip(x / 6 + 0.5, 0, 1) (HardSwish as imported) on `x`, which only the chain's MulScalar and the final
// Mul2 read: the chain's functions, the Mul2 last (none when the pattern is not there).
std::vector<size_t> hard_swish_chain(const ir::Network& n, const std::string& x,
                                     const std::map<std::string, int>& uses,
                                     const std::set<std::string>& interface) {
  auto count = uses.find(x);
  if (count == uses.end() || count->second != 2 || interface.count(x)) return {};
  std::vector<size_t> readers;
  for (size_t j = 0; j < n.functions.size(); ++j)
    if (std::count(n.functions[j].inputs.begin(), n.functions[j].inputs.end(), x)) readers.push_back(j);
  for (size_t start : readers) {
    double alpha = 0, beta = 0;
    std::vector<size_t> chain = clip_chain(n, start, uses, interface, alpha, beta);
    if (chain.empty() || std::abs(alpha - 1.0 / 6.0) > 1e-6 || beta != 0.5) continue;
    const std::string& clipped = n.functions[chain.back()].outputs[0];
    const size_t mul = sole_consumer(n, clipped, uses, interface);
    if (mul == kNoFunction || !std::count(readers.begin(), readers.end(), mul)) continue;
    const ir::Function& m = n.functions[mul];
    if (m.type != "Mul2" || m.outputs.size() != 1 || m.inputs.size() != 2 ||
        !((m.inputs[0] == x && m.inputs[1] == clipped) || (m.inputs[1] == x && m.inputs[0] == clipped)))
      continue;
    chain.push_back(mul);
    return chain;
  }
  return {};
}
bool same_known_shape(const ir::Network& n, const std::string& a, const std::string& b) {
  const ir::Variable* va = n.find_variable(a);
  const ir::Variable* vb = n.find_variable(b);
  return va && vb && !va->shape.empty() && va->shape == vb->shape;
}

Chain find_chain(const ir::Network& n, size_t i, const std::map<std::string, int>& uses,
                 const std::set<std::string>& interface) {
  Chain c{i, kNoFunction, {}, "", "", {}};
  const ir::Function& conv = n.functions[i];
  if (conv.type != "Convolution" || conv.outputs.size() != 1 || conv.inputs.size() < 2 ||
      conv.attrs.get_bool("channel_last", false))
    return c;
  std::string last = conv.outputs[0];
  size_t j = sole_consumer(n, last, uses, interface);
  if (j != kNoFunction && n.functions[j].type == "Add2" && n.functions[j].inputs.size() == 2 &&
      n.functions[j].outputs.size() == 1) {
    const auto& in = n.functions[j].inputs;
    const std::string z = in[0] == last ? in[1] : in[0];
    if (z != last && same_known_shape(n, z, last)) {
      c.add = j, c.z = z;
      last = n.functions[j].outputs[0];
      j = sole_consumer(n, last, uses, interface);
    }
  }
  if (j != kNoFunction) {
    c.nonlinearity = nonlinearity_of(n.functions[j], c.args);
    if (!c.nonlinearity.empty()) {
      c.acts = {j};
    } else {
      double alpha = 0, beta = 0;
      c.acts = clip_chain(n, j, uses, interface, alpha, beta);
      if (!c.acts.empty()) c.nonlinearity = "hard_sigmoid", c.args = {alpha, beta};
    }
  } else if (!(c.acts = hard_swish_chain(n, last, uses, interface)).empty()) {
    c.nonlinearity = "hard_swish";
  }
  return c;
}

}  // namespace

std::vector<std::string> fuse_convolution_epilogues(ir::Model& model) {
  std::vector<std::string> lines;
  const auto interface = interface_variables(model);
  for_inference_networks(model, [&](ir::Network& network) {
    // Counted once: a fusion leaves every surviving variable with the readers it had (the fused function
    // reads the convolution's inputs and the residual in place of the convolution and the Add2).
    const std::map<std::string, int> uses = consumer_counts(network);
    for (size_t i = 0; i < network.functions.size(); ++i) {
      const Chain c = find_chain(network, i, uses, interface);
      if (c.add == kNoFunction && c.acts.empty()) continue;
      const ir::Function conv = network.functions[c.conv];
      const size_t last = !c.acts.empty() ? c.acts.back() : c.add;
      ir::Function fused;
      fused.name = conv.name;
      fused.type = "FusedConvolution";
      fused.context = conv.context;
      fused.inputs = conv.inputs;
      if (c.add != kNoFunction) fused.inputs.push_back(c.z);
      fused.outputs = network.functions[last].outputs;
      fused.has_param = true;
      fused.attrs = conv.attrs;
      fused.attrs.set("nonlinearity", c.nonlinearity.empty() ? std::string("identity") : c.nonlinearity);
      fused.attrs.set("nonlinearity_args", c.args);
      std::vector<size_t> parts{c.conv};
      if (c.add != kNoFunction) parts.push_back(c.add);
      parts.insert(parts.end(), c.acts.begin(), c.acts.end());
      std::string what = conv.name;
      for (size_t k = 1; k < parts.size(); ++k) what += " + " + network.functions[parts[k]].name;
      lines.push_back(network.name + ": " + what + " fused into FusedConvolution");
      // The fused function takes the last one's place (all its inputs exist there); the others go.
      std::vector<size_t> gone(parts.begin(), parts.end() - 1);
      std::vector<std::string> dropped;
      for (size_t k : gone) dropped.push_back(network.functions[k].outputs[0]);
      network.functions[last] = std::move(fused);
      std::sort(gone.rbegin(), gone.rend());
      for (size_t k : gone) network.functions.erase(network.functions.begin() + std::ptrdiff_t(k));
      for (const auto& v : dropped) erase_variable(network, v);
      i = c.conv - 1;  // the list shifted: index c.conv is next (wraps to the start for 0)
    }
  });
  return lines;
}

}  // namespace nn::formats
