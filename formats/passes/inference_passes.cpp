// BatchNormalization folding and Identity removal for inference networks (see inference_passes.hpp).
#include "inference_passes.hpp"

#include "inference_pass_common.hpp"

#include <cmath>
#include <functional>
#include <map>
#include <set>

namespace nn::formats {
using namespace pass_common;
namespace {

// Folds function `bn_index` of `network` into the producer of its input; false when it does not apply.
bool fold_one(ir::Model& model, ir::Network& network, size_t bn_index, const std::map<std::string, int>& uses,
              const std::set<std::string>& interface, std::string& what) {
  const ir::Function bn = network.functions[bn_index];
  if (bn.type != "BatchNormalization" || bn.attrs.get_bool("batch_stat", true) || bn.outputs.size() != 1)
    return false;
  if (bn.attrs.get_ints("axes", {1}) != std::vector<int64_t>{1}) return false;
  const bool no_scale = bn.attrs.get_bool("no_scale", false), no_bias = bn.attrs.get_bool("no_bias", false);
  if (bn.inputs.size() != size_t(3 + (no_scale ? 0 : 1) + (no_bias ? 0 : 1))) return false;
  const std::string& x = bn.inputs[0];
  auto count = uses.find(x);
  if (count == uses.end() || count->second != 1 || interface.count(x)) return false;
  size_t producer = network.functions.size();
  for (size_t i = 0; i < network.functions.size(); ++i)
    for (const auto& out : network.functions[i].outputs)
      if (out == x) producer = i;
  if (producer == network.functions.size()) return false;
  ir::Function& p = network.functions[producer];
  const bool conv = p.type == "Convolution", affine = p.type == "Affine";
  if ((!conv && !affine) || p.outputs.size() != 1 || p.inputs.size() < 2 || p.inputs.size() > 3) return false;
  if (p.attrs.get_int("base_axis", 1) != 1 || p.attrs.get_bool("channel_last", false)) return false;

  const ir::Parameter* w = find_param(model, p.inputs[1]);
  const ir::Parameter* b = p.inputs.size() == 3 ? find_param(model, p.inputs[2]) : nullptr;
  if (!w || w->shape.empty() || (p.inputs.size() == 3 && !b)) return false;
  const int64_t channels = conv ? w->shape[0] : (w->shape.size() == 2 ? w->shape[1] : -1);
  if (channels <= 0 || int64_t(w->data.size()) != shape_size(w->shape)) return false;
  if (b && int64_t(b->data.size()) != channels) return false;
  // BatchNormalization inputs: x, [beta], [gamma], mean, variance.
  auto stat = [&](int index) -> const ir::Parameter* {
    const ir::Parameter* s = find_param(model, bn.inputs[size_t(index)]);
    return s && int64_t(s->data.size()) == channels ? s : nullptr;
  };
  const int beta_i = no_bias ? -1 : 1, gamma_i = no_scale ? -1 : (no_bias ? 1 : 2);
  const int mean_i = int(bn.inputs.size()) - 2, var_i = int(bn.inputs.size()) - 1;
  const ir::Parameter *beta = beta_i > 0 ? stat(beta_i) : nullptr, *gamma = gamma_i > 0 ? stat(gamma_i) : nullptr,
                      *mean = stat(mean_i), *var = stat(var_i);
  if (!mean || !var || (beta_i > 0 && !beta) || (gamma_i > 0 && !gamma)) return false;

  const double eps = bn.attrs.get_float("eps", 1e-5);
  std::vector<double> scale(static_cast<size_t>(channels));
  std::vector<float> bias(static_cast<size_t>(channels));
  for (int64_t c = 0; c < channels; ++c) {
    const size_t i = size_t(c);
    scale[i] = (gamma ? double(gamma->data[i]) : 1.0) / std::sqrt(double(var->data[i]) + eps);
    bias[i] = float(((b ? double(b->data[i]) : 0.0) - double(mean->data[i])) * scale[i] +
                    (beta ? double(beta->data[i]) : 0.0));
  }
  std::vector<float> wf(w->data.size());
  const int64_t per_channel = int64_t(w->data.size()) / channels;
  for (size_t k = 0; k < wf.size(); ++k) {
    // Convolution W is (OC, ...): the channel is the leading index; Affine W is (inputs, OC): the last.
    const size_t c = conv ? size_t(int64_t(k) / per_channel) : k % size_t(channels);
    wf[k] = float(double(w->data[k]) * scale[c]);
  }
  const Shape w_shape = w->shape;
  const std::string w_name = p.name + "/folded_W", b_name = p.name + "/folded_b";
  put_parameter(model, network, w_name, w_shape, std::move(wf));
  put_parameter(model, network, b_name, Shape{channels}, std::move(bias));
  ir::Function& producer_fn = network.functions[producer];
  producer_fn.inputs = {producer_fn.inputs[0], w_name, b_name};
  producer_fn.outputs = bn.outputs;
  what = bn.name + " folded into " + producer_fn.type + " " + producer_fn.name;
  network.functions.erase(network.functions.begin() + std::ptrdiff_t(bn_index));
  erase_variable(network, x);
  return true;
}

}  // namespace

std::vector<std::string> fold_batch_normalization(ir::Model& model) {
  std::vector<std::string> lines;
  const auto interface = interface_variables(model);
  for_inference_networks(model, [&](ir::Network& network) {
    for (size_t i = 0; i < network.functions.size();) {
      std::string what;
      if (fold_one(model, network, i, consumer_counts(network), interface, what)) {
        lines.push_back(network.name + ": " + what);
        continue;  // the next function moved to index i
      }
      ++i;
    }
  });
  return lines;
}

std::vector<std::string> remove_identity(ir::Model& model) {
  std::vector<std::string> lines;
  const auto interface = interface_variables(model);
  for_inference_networks(model, [&](ir::Network& network) {
    for (size_t i = 0; i < network.functions.size();) {
      const ir::Function f = network.functions[i];
      if (f.type != "Identity" || f.inputs.size() != 1 || f.outputs.size() != 1 || interface.count(f.outputs[0])) {
        ++i;
        continue;
      }
      for (auto& g : network.functions)
        for (auto& in : g.inputs)
          if (in == f.outputs[0]) in = f.inputs[0];
      network.functions.erase(network.functions.begin() + std::ptrdiff_t(i));
      erase_variable(network, f.outputs[0]);
      lines.push_back(network.name + ": " + f.name + " removed");
    }
  });
  return lines;
}

namespace {

// Replaces function i and its partner j = partner(network, i) (j == size: none) by one function of `type`
// on i's first input, at j's place; i's output variable goes. Networks an optimizer trains stay as they are.
std::vector<std::string> fuse_pairs(ir::Model& model, const std::string& type,
                                    const std::function<size_t(const ir::Network&, size_t)>& partner) {
  std::vector<std::string> lines;
  for_inference_networks(model, [&](ir::Network& network) {
    for (size_t i = 0; i < network.functions.size();) {
      const size_t j = partner(network, i);
      if (j >= network.functions.size()) {
        ++i;
        continue;
      }
      const ir::Function first = network.functions[i];
      ir::Function& g = network.functions[j];
      lines.push_back(network.name + ": " + first.name + " and " + g.name + " fused into " + type);
      g.type = type;
      g.inputs = {first.inputs[0]};
      g.attrs = Attrs{};
      g.has_param = false;
      network.functions.erase(network.functions.begin() + std::ptrdiff_t(i));
      erase_variable(network, first.outputs[0]);
    }
  });
  return lines;
}

}  // namespace

std::vector<std::string> fuse_swish(ir::Model& model) {
  const auto interface = interface_variables(model);
  // Sigmoid(x) whose only consumer is Mul2(x, Sigmoid(x)).
  return fuse_pairs(model, "Swish", [&](const ir::Network& network, size_t i) {
    const ir::Function& sig = network.functions[i];
    size_t mul = network.functions.size();
    if (sig.type != "Sigmoid" || sig.inputs.size() != 1 || sig.outputs.size() != 1 ||
        interface.count(sig.outputs[0]) || consumer_counts(network)[sig.outputs[0]] != 1)
      return mul;
    for (size_t j = 0; j < network.functions.size(); ++j) {
      const ir::Function& g = network.functions[j];
      const bool pair = g.inputs.size() == 2 && ((g.inputs[0] == sig.inputs[0] && g.inputs[1] == sig.outputs[0]) ||
                                                 (g.inputs[1] == sig.inputs[0] && g.inputs[0] == sig.outputs[0]));
      if (g.type == "Mul2" && pair && g.outputs.size() == 1) mul = j;
    }
    return mul;
  });
}

std::vector<std::string> fuse_relu6(ir::Model& model) {
  const auto interface = interface_variables(model);
  auto scalar_is = [](const ir::Function& f, const char* type, double val) {
    return f.type == type && f.inputs.size() == 1 && f.outputs.size() == 1 && f.attrs.get_float("val", -1) == val;
  };
  // MaximumScalar(0) then MinimumScalar(6), or the other order, with nothing else reading the middle.
  return fuse_pairs(model, "ReLU6", [&](const ir::Network& network, size_t i) {
    const ir::Function& first = network.functions[i];
    const bool max_first = scalar_is(first, "MaximumScalar", 0.0),
               min_first = scalar_is(first, "MinimumScalar", 6.0);
    size_t second = network.functions.size();
    if (!(max_first || min_first) || interface.count(first.outputs[0]) ||
        consumer_counts(network)[first.outputs[0]] != 1)
      return second;
    for (size_t j = i + 1; j < network.functions.size(); ++j) {
      const ir::Function& g = network.functions[j];
      if (g.inputs.size() == 1 && g.inputs[0] == first.outputs[0] &&
          (max_first ? scalar_is(g, "MinimumScalar", 6.0) : scalar_is(g, "MaximumScalar", 0.0)))
        second = j;
    }
    return second;
  });
}

std::vector<std::string> scalar_exponents(ir::Model& model) {
  std::vector<std::string> lines;
  for_inference_networks(model, [&](ir::Network& network) {
    for (auto& f : network.functions) {
      if (f.type != "Pow2" || f.inputs.size() != 2 || f.outputs.size() != 1) continue;
      const std::optional<float> e = single_value(find_param(model, f.inputs[1]));
      const ir::Variable *x = network.find_variable(f.inputs[0]), *y = network.find_variable(f.outputs[0]);
      if (!e || !x || !y || x->shape != y->shape) continue;  // x is not broadcast
      lines.push_back(network.name + ": " + f.name + " becomes PowScalar(" + std::to_string(*e) + ")");
      f.type = "PowScalar";
      f.inputs.resize(1);
      f.attrs = Attrs{{"val", double(*e)}};
      f.has_param = true;
    }
  });
  return lines;
}

std::vector<std::string> optimize_for_inference(ir::Model& model) {
  std::vector<std::string> lines;
  for (const auto& l : remove_identity(model)) lines.push_back("remove_identity: " + l);
  for (const auto& l : fold_transposes(model)) lines.push_back("fold_transposes: " + l);
  for (const auto& l : scalar_exponents(model)) lines.push_back("scalar_exponents: " + l);
  for (const auto& l : fuse_layer_norm(model)) lines.push_back("fuse_layer_norm: " + l);
  for (const auto& l : fold_batch_normalization(model)) lines.push_back("fold_batch_normalization: " + l);
  for (const auto& l : fuse_swish(model)) lines.push_back("fuse_swish: " + l);
  for (const auto& l : fuse_relu6(model)) lines.push_back("fuse_relu6: " + l);
  for (const auto& l : fuse_convolution_epilogues(model)) lines.push_back("fuse_convolution_epilogues: " + l);
  for (const auto& l : split_concatenated_convolutions(model))
    lines.push_back("split_concatenated_convolutions: " + l);
  return lines;
}

std::vector<std::string> prune_unused_parameters(ir::Model& model) {
  std::set<std::string> used;
  for (const auto& n : model.networks)
    for (const auto& f : n.functions)
      for (const auto& in : f.inputs) used.insert(in);
  std::vector<std::string> lines;
  std::vector<ir::Parameter> kept;
  for (auto& p : model.parameters) {
    if (used.count(p.name))
      kept.push_back(std::move(p));
    else
      lines.push_back(p.name + " removed (no longer used)");
  }
  model.parameters = std::move(kept);
  for (auto& n : model.networks) {
    std::vector<ir::Variable> vars;
    for (auto& v : n.variables)
      if (v.type != "Parameter" || used.count(v.name)) vars.push_back(std::move(v));
    n.variables = std::move(vars);
  }
  return lines;
}

}  // namespace nn::formats
