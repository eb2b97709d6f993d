// Convolution -> [Add2 residual] -> [activation] becomes one FusedConvolution (see inference_passes.hpp).
#include "inference_pass_common.hpp"
#include "inference_passes.hpp"

#include <algorithm>

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
  if (f.type == "LeakyReLU" || f.type == "ELU") {  // alpha as given, else the schema's default
    args.push_back(OpRegistry::instance().get(f.type).complete(f.attrs).get_float("alpha"));
    return f.type == "ELU" ? "elu" : "leaky_relu";
  }
  return "";
}

struct Chain {
  size_t conv, add, act;  // function indices; add/act == kNoFunction when absent
  std::string z, nonlinearity;
  std::vector<double> args;
};
bool same_known_shape(const ir::Network& n, const std::string& a, const std::string& b) {
  const ir::Variable* va = n.find_variable(a);
  const ir::Variable* vb = n.find_variable(b);
  return va && vb && !va->shape.empty() && va->shape == vb->shape;
}

Chain find_chain(const ir::Network& n, size_t i, const std::map<std::string, int>& uses,
                 const std::set<std::string>& interface) {
  Chain c{i, kNoFunction, kNoFunction, "", "", {}};
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
    if (!c.nonlinearity.empty()) c.act = j;
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
      if (c.add == kNoFunction && c.act == kNoFunction) continue;
      const ir::Function conv = network.functions[c.conv];
      const size_t last = c.act != kNoFunction ? c.act : c.add;
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
      std::string what = conv.name;
      for (size_t k : {c.add, c.act})
        if (k != kNoFunction) what += " + " + network.functions[k].name;
      lines.push_back(network.name + ": " + what + " fused into FusedConvolution");
      // The fused function takes the last one's place (all its inputs exist there); the others go.
      std::vector<size_t> gone{c.conv};
      std::vector<std::string> dropped{conv.outputs[0]};
      if (c.add != kNoFunction && last != c.add)
        gone.push_back(c.add), dropped.push_back(network.functions[c.add].outputs[0]);
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
