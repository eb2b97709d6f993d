// fuse_layer_norm: LayerNorm as PyTorch and Hugging Face exporters decompose it (before opset 17) becomes one
// LayerNormalization (see inference_passes.hpp).
#include <algorithm>
#include <optional>
#include <set>

#include "inference_pass_common.hpp"
#include "inference_passes.hpp"

namespace nn::formats {
using namespace pass_common;
namespace {

// The network of one search, with what the matching asks of it.
struct Graph {
  const ir::Model& model;
  const ir::Network& network;
  std::map<std::string, int> uses;
  const std::set<std::string>& interface;

  // The function writing `var`, or null.
  const ir::Function* producer(const std::string& var) const {
    for (const auto& f : network.functions)
      if (f.outputs.size() == 1 && f.outputs[0] == var) return &f;
    return nullptr;
  }
  // The producer of `var` when it has `type`, one output, and `var` is read `readers` times and by no executor.
  const ir::Function* inner(const std::string& var, const char* type, int readers = 1) const {
    const ir::Function* f = producer(var);
    auto it = uses.find(var);
    if (!f || f->type != type || interface.count(var) || it == uses.end() || it->second != readers) return nullptr;
    return f;
  }
  Shape shape(const std::string& var) const {
    const ir::Variable* v = network.find_variable(var);
    return v ? v->shape : Shape{};
  }
};

// The other input of a two-input function, given one of them; empty when `known` is not an input.
std::string other_input(const ir::Function& f, const std::string& known) {
  if (f.inputs.size() != 2) return "";
  return f.inputs[0] == known ? f.inputs[1] : f.inputs[1] == known ? f.inputs[0] : "";
}

// A matched LayerNorm: y = (x - mean) / sqrt(var + eps) [* gamma] [+ beta] over the trailing axes from
// `first_axis`.
struct Match {
  std::string x, gamma, beta;
  int64_t first_axis = 0;
  double eps = 0;
  const ir::Function* mean = nullptr;      // the first function replaced
  std::vector<const ir::Function*> parts;  // every function replaced, the last one writing y
};

// Mean of `var` over trailing axes with kept dims: the first of those axes, or -1.
int64_t trailing_mean_axis(const Graph& g, const ir::Function& mean) {
  const Shape xs = g.shape(mean.inputs.empty() ? "" : mean.inputs[0]);
  const int64_t rank = int64_t(xs.size());
  std::vector<int64_t> axes = mean.attrs.get_ints("axes", {});
  if (axes.empty() || rank == 0 || !mean.attrs.get_bool("keep_dims", false)) return -1;
  for (auto& a : axes) a = a < 0 ? a + rank : a;
  std::sort(axes.begin(), axes.end());
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i] != rank - int64_t(axes.size()) + int64_t(i)) return -1;
  return axes[0];
}

// Whether parameter `name` fits LayerNormalization's beta/gamma for x of shape xs normalized from `first_axis`:
// its dims aligned to x's trailing ones, the normalized dims full and the others 1.
bool fits_norm_axes(const Graph& g, const std::string& name, const Shape& xs, int64_t first_axis) {
  const ir::Parameter* p = find_param(g.model, name);
  if (!p || p->shape.size() > xs.size()) return false;
  const size_t pad = xs.size() - p->shape.size();
  for (size_t d = 0; d < p->shape.size(); ++d)
    if (p->shape[d] != (int64_t(d + pad) >= first_axis ? xs[d + pad] : 1)) return false;
  return int64_t(p->data.size()) == shape_size(Shape(xs.begin() + first_axis, xs.end()));
}

// The denominator sqrt(var + eps): fills eps and x and appends its functions; false when it is not one.
bool match_deviation(const Graph& g, const std::string& var_eps, Match& m) {
  const ir::Function* add = g.inner(var_eps, "AddScalar");
  std::string var;
  if (add) {
    var = add->inputs[0];
    m.eps = add->attrs.get_float("val", -1);
  } else if ((add = g.inner(var_eps, "Add2"))) {
    for (const auto& in : add->inputs)
      if (auto c = single_value(find_param(g.model, in))) m.eps = *c, var = other_input(*add, in);
  }
  if (!add || add->inputs.empty() || var.empty() || m.eps <= 0 || g.shape(var) != g.shape(var_eps)) return false;
  m.parts.push_back(add);
  const ir::Function* var_mean = g.inner(var, "Mean");
  if (!var_mean || var_mean->inputs.size() != 1) return false;
  m.parts.push_back(var_mean);
  const std::string square = var_mean->inputs[0];
  const ir::Function* sq = g.inner(square, "PowScalar");
  if (sq && sq->attrs.get_float("val", 0) != 2.0) return false;
  if (!sq && (sq = g.inner(square, "Mul2")) && sq->inputs[0] != sq->inputs[1]) return false;
  if (!sq || sq->inputs.empty()) return false;
  m.parts.push_back(sq);
  const int centred_readers = sq->type == "Mul2" ? 3 : 2;  // the square (once or twice) and the division
  const ir::Function* sub = g.inner(sq->inputs[0], "Sub2", centred_readers);
  if (!sub || sub->inputs.size() != 2) return false;
  const ir::Function* mean = g.inner(sub->inputs[1], "Mean");
  if (!mean || mean->inputs.size() != 1 || mean->inputs[0] != sub->inputs[0]) return false;
  m.x = sub->inputs[0];
  m.first_axis = trailing_mean_axis(g, *mean);
  if (m.first_axis < 1 || trailing_mean_axis(g, *var_mean) != m.first_axis) return false;
  m.parts.push_back(sub);
  m.parts.push_back(mean);
  m.mean = mean;
  return true;
}

// The LayerNorm whose division (or product by the reciprocal deviation) is `f`, then its optional scale and
// shift; nullopt when `f` does not end one.
std::optional<Match> match_layer_norm(const Graph& g, const ir::Function& f) {
  if ((f.type != "Div2" && f.type != "Mul2") || f.inputs.size() != 2 || f.outputs.size() != 1) return std::nullopt;
  Match m;
  const double power = f.type == "Div2" ? 0.5 : -0.5;  // sqrt(v + eps) divides, its reciprocal multiplies
  const ir::Function* root = nullptr;
  size_t centred = 0;  // the input holding x - mean
  for (size_t i : {size_t(1), size_t(0)}) {
    const ir::Function* r = g.inner(f.inputs[i], "PowScalar");
    if (r && r->inputs.size() == 1 && r->attrs.get_float("val", 0) == power && !root) root = r, centred = 1 - i;
    if (f.type == "Div2") break;  // the deviation divides: the second input only
  }
  if (!root) return std::nullopt;
  m.parts.push_back(root);
  if (!match_deviation(g, root->inputs[0], m)) return std::nullopt;
  if (f.inputs[centred] != m.parts[m.parts.size() - 2]->outputs[0]) return std::nullopt;  // the Sub2's output
  m.parts.push_back(&f);
  const Shape xs = g.shape(m.x);
  std::string y = f.outputs[0];
  // y * gamma, then y + beta, each a parameter over the normalized axes; y read by nothing else.
  for (const char* type : {"Mul2", "Add2"}) {
    auto it = g.uses.find(y);
    if (g.interface.count(y) || it == g.uses.end() || it->second != 1) break;
    const ir::Function* next = nullptr;
    for (const auto& h : g.network.functions)
      if (h.type == type && h.outputs.size() == 1 && !other_input(h, y).empty()) next = &h;
    if (!next || !fits_norm_axes(g, other_input(*next, y), xs, m.first_axis) || g.shape(next->outputs[0]) != xs)
      break;
    (std::string(type) == "Mul2" ? m.gamma : m.beta) = other_input(*next, y);
    m.parts.push_back(next);
    y = next->outputs[0];
  }
  return m;
}

// The parameter LayerNormalization reads for `name`: itself when already of shape `param`, else a copy of that
// shape named '<function>/<role>'.
std::string norm_parameter(ir::Model& model, ir::Network& network, const std::string& name, const Shape& param,
                           const std::string& function, const char* role) {
  const ir::Parameter* p = find_param(model, name);
  if (p->shape == param) return name;
  const std::string copy = function + "/" + role;
  put_parameter(model, network, copy, param, p->data);
  return copy;
}

// Replaces the matched functions by one LayerNormalization at the place of the last.
std::string replace(ir::Model& model, ir::Network& network, const Match& m) {
  const ir::Function& last = *m.parts.back();
  const Shape xs = network.find_variable(m.x)->shape;
  Shape param = xs;
  std::vector<int64_t> batch_axes;
  for (int64_t a = 0; a < m.first_axis; ++a) param[size_t(a)] = 1, batch_axes.push_back(a);
  ir::Function norm;
  norm.name = last.name;
  norm.type = "LayerNormalization";
  norm.outputs = last.outputs;
  norm.inputs = {m.x};
  if (!m.beta.empty()) norm.inputs.push_back(norm_parameter(model, network, m.beta, param, last.name, "beta"));
  if (!m.gamma.empty()) norm.inputs.push_back(norm_parameter(model, network, m.gamma, param, last.name, "gamma"));
  norm.attrs = Attrs{
      {"batch_axis", batch_axes}, {"eps", m.eps}, {"no_scale", m.gamma.empty()}, {"no_bias", m.beta.empty()}};
  norm.has_param = true;
  std::set<const ir::Function*> gone(m.parts.begin(), m.parts.end());
  std::set<std::string> dropped;
  for (const ir::Function* f : m.parts)
    if (f != &last) dropped.insert(f->outputs[0]);
  const std::string line = m.mean->name + " to " + last.name + " (" + std::to_string(m.parts.size()) +
                           " functions) fused into LayerNormalization";
  std::vector<ir::Function> kept;
  for (const auto& f : network.functions) {
    if (&f == &last)
      kept.push_back(norm);
    else if (!gone.count(&f))
      kept.push_back(f);
  }
  network.functions = std::move(kept);
  for (const auto& v : dropped) erase_variable(network, v);
  return line;
}

}  // namespace

std::vector<std::string> fuse_layer_norm(ir::Model& model) {
  std::vector<std::string> lines;
  const auto interface = interface_variables(model);
  for_inference_networks(model, [&](ir::Network& network) {
    Graph g{model, network, consumer_counts(network), interface};
    for (size_t i = 0; i < network.functions.size(); ++i) {
      auto m = match_layer_norm(g, network.functions[i]);
      if (!m) continue;
      const std::string name = m->parts.back()->name;
      lines.push_back(network.name + ": " + replace(model, network, *m));
      g.uses = consumer_counts(network);
      for (size_t j = 0; j < network.functions.size(); ++j)  // the functions before it went: go on after it
        if (network.functions[j].name == name) i = j;
    }
  });
  return lines;
}

}  // namespace nn::formats
