// Transposes that other converters write around each layer (tf2onnx, NHWC models) sunk and cancelled.
#include <algorithm>
#include <numeric>

#include "inference_pass_common.hpp"
#include "inference_passes.hpp"

namespace nn::formats {
using namespace pass_common;
namespace {

using Perm = std::vector<int64_t>;

bool is_identity(const Perm& p) {
  for (size_t k = 0; k < p.size(); ++k)
    if (p[k] != int64_t(k)) return false;
  return true;
}

// The permutation of a Transpose (y axis k is x axis p[k]); empty when it is not one.
Perm perm_of(const ir::Function& t) {
  if (t.type != "Transpose" || t.inputs.size() != 1 || t.outputs.size() != 1) return {};
  Perm p = t.attrs.get_ints("axes", {});
  Perm seen(p.size(), 0);
  for (int64_t a : p)
    if (a < 0 || a >= int64_t(p.size()) || seen[size_t(a)]++) return {};
  return p;
}

Perm inverse(const Perm& p) {
  Perm q(p.size());
  for (size_t k = 0; k < p.size(); ++k) q[size_t(p[k])] = int64_t(k);
  return q;
}

// out[k] = s[p[k]]
Shape permute(const Shape& s, const Perm& p) {
  Shape out(p.size());
  for (size_t k = 0; k < p.size(); ++k) out[k] = s[size_t(p[k])];
  return out;
}

// Row-major data of `shape` transposed by p.
std::vector<float> transpose_data(const std::vector<float>& data, const Shape& shape, const Perm& p) {
  const size_t rank = p.size();
  std::vector<int64_t> in_strides(rank, 1);
  for (size_t k = rank; k-- > 1;) in_strides[k - 1] = in_strides[k] * shape[k];
  const Shape out_shape = permute(shape, p);
  std::vector<float> out(data.size());
  std::vector<int64_t> index(rank, 0);
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t src = 0;
    for (size_t k = 0; k < rank; ++k) src += index[k] * in_strides[size_t(p[k])];
    out[i] = data[size_t(src)];
    for (size_t k = rank; k-- > 0;) {
      if (++index[k] < out_shape[k]) break;
      index[k] = 0;
    }
  }
  return out;
}

const std::set<std::string> kUnary = {
    "ReLU",       "ReLU6",         "LeakyReLU",     "ELU",         "SELU",      "CELU",      "Sigmoid",
    "Tanh",       "Swish",         "GELU",          "HardSigmoid", "HardTanh",  "Abs",       "Exp",
    "Log",        "Sqrt",          "Identity",      "AddScalar",   "MulScalar", "PowScalar", "RDivScalar",
    "RSubScalar", "MaximumScalar", "MinimumScalar", "SoftPlus",    "Neg"};
const std::set<std::string> kBinary = {"Add2", "Sub2", "Mul2", "Div2", "Maximum2", "Minimum2", "Pow2"};

class Sinker {
 public:
  Sinker(ir::Model& model, ir::Network& net, const std::set<std::string>& interface)
      : model_(model), net_(net), interface_(interface) {}

  // One rewrite anywhere in the network; false when none applies.
  bool step() {
    for (size_t i = 0; i < net_.functions.size(); ++i) {
      const Perm p = perm_of(net_.functions[i]);
      if (p.empty()) continue;
      if (is_identity(p) && !interface_.count(net_.functions[i].outputs[0])) {
        replace_reads(net_.functions[i].outputs[0], net_.functions[i].inputs[0]);
        erase_function(i);
        return true;
      }
      if (fold_parameter(i, p) || merge_twin(i, p) || merge_into_producer(i, p) || sink(i, p)) return true;
    }
    return false;
  }

 private:
  std::vector<size_t> readers(const std::string& var) const {
    std::vector<size_t> r;
    for (size_t j = 0; j < net_.functions.size(); ++j)
      for (const auto& in : net_.functions[j].inputs)
        if (in == var) {
          r.push_back(j);
          break;
        }
    return r;
  }
  size_t producer(const std::string& var) const {
    for (size_t j = 0; j < net_.functions.size(); ++j)
      for (const auto& out : net_.functions[j].outputs)
        if (out == var) return j;
    return kNoFunction;
  }
  const ir::Parameter* parameter(const std::string& var) const {
    const ir::Variable* v = net_.find_variable(var);
    const ir::Parameter* prm = find_param(model_, var);
    return v && v->type == "Parameter" && prm && int64_t(prm->data.size()) == shape_size(prm->shape) ? prm
                                                                                                     : nullptr;
  }
  static int64_t shape_size(const Shape& s) {
    return std::accumulate(s.begin(), s.end(), int64_t(1), std::multiplies<int64_t>());
  }
  Shape shape(const std::string& var) const {
    const ir::Variable* v = net_.find_variable(var);
    return v ? v->shape : Shape{};
  }
  void replace_reads(const std::string& from, const std::string& to) {
    for (auto& f : net_.functions)
      for (auto& in : f.inputs)
        if (in == from) in = to;
  }
  void erase_function(size_t i) {
    const std::string out = net_.functions[i].outputs[0];
    net_.functions.erase(net_.functions.begin() + std::ptrdiff_t(i));
    erase_variable(net_, out);
  }
  std::string fresh_name(const std::string& base) const {
    std::string name = base;
    auto taken = [&](const std::string& n) {
      return net_.find_variable(n) || find_param(model_, n) ||
             std::any_of(net_.functions.begin(), net_.functions.end(),
                         [&](const ir::Function& f) { return f.name == n; });
    };
    while (taken(name)) name += "_";
    return name;
  }
  void add_variable(const std::string& name, const Shape& s) {
    ir::Variable v;
    v.name = name;
    v.shape = s;
    net_.variables.push_back(std::move(v));
  }
  // The parameter transposed by p (made once per parameter and permutation).
  std::string transposed_parameter(const ir::Parameter& prm, const Perm& p) {
    std::string name = prm.name + "/transposed";
    for (int64_t a : p) name += std::to_string(a);
    if (!find_param(model_, name)) {
      std::vector<float> data = transpose_data(prm.data, prm.shape, p);
      put_parameter(model_, net_, name, permute(prm.shape, p), std::move(data));
    } else if (!net_.find_variable(name)) {
      put_parameter(model_, net_, name, find_param(model_, name)->shape, find_param(model_, name)->data);
    }
    return name;
  }

  // Transpose of a parameter: a transposed parameter.
  bool fold_parameter(size_t i, const Perm& p) {
    const ir::Function t = net_.functions[i];
    const ir::Parameter* prm = parameter(t.inputs[0]);
    if (!prm || prm->shape.size() != p.size() || interface_.count(t.outputs[0])) return false;
    replace_reads(t.outputs[0], transposed_parameter(*prm, p));
    erase_function(i);
    return true;
  }

  // Another Transpose of the same input by the same axes: its readers read this one.
  bool merge_twin(size_t i, const Perm& p) {
    for (size_t j = i + 1; j < net_.functions.size(); ++j) {
      const ir::Function& t = net_.functions[j];
      if (t.inputs == net_.functions[i].inputs && perm_of(t) == p && !interface_.count(t.outputs[0])) {
        replace_reads(t.outputs[0], net_.functions[i].outputs[0]);
        erase_function(j);
        return true;
      }
    }
    return false;
  }

  // Transpose of a Transpose: one Transpose of the first one's input, or none when they cancel.
  bool merge_into_producer(size_t i, const Perm& q) {
    const size_t j = producer(net_.functions[i].inputs[0]);
    if (j == kNoFunction) return false;
    const Perm p = perm_of(net_.functions[j]);
    if (p.size() != q.size()) return false;
    Perm r(q.size());
    for (size_t k = 0; k < q.size(); ++k) r[k] = p[size_t(q[k])];
    const std::string x = net_.functions[j].inputs[0], mid = net_.functions[j].outputs[0];
    const std::string out = net_.functions[i].outputs[0];
    if (is_identity(r) && !interface_.count(out)) {
      replace_reads(out, x);
      erase_function(i);
    } else {
      net_.functions[i].inputs[0] = x;
      net_.functions[i].attrs.set("axes", r);
    }
    if (readers(mid).empty() && !interface_.count(mid)) erase_function(producer(mid));
    return true;
  }

  // A function that reads only Transposes by p (and parameters) runs before them: one Transpose after it.
  bool sink(size_t i, const Perm& p) {
    const std::string y = net_.functions[i].outputs[0];
    const std::vector<size_t> r = readers(y);
    if (r.size() != 1 || interface_.count(y)) return false;
    const size_t fi = r[0];
    ir::Function f = net_.functions[fi];
    const int64_t rank = int64_t(p.size());
    if (f.outputs.size() != 1 || shape(f.outputs[0]).size() == 0) return false;
    // The new inputs and the Transposes that go.
    std::vector<std::string> inputs;
    std::vector<std::string> gone;
    for (size_t k = 0; k < f.inputs.size(); ++k) {
      const std::string& in = f.inputs[k];
      const size_t pj = producer(in);
      if (pj != kNoFunction && perm_of(net_.functions[pj]) == p) {
        const std::vector<size_t> rr = readers(in);
        if (rr.size() != 1 || interface_.count(in)) return false;
        inputs.push_back(net_.functions[pj].inputs[0]);
        if (std::find(gone.begin(), gone.end(), in) == gone.end()) gone.push_back(in);
      } else if (const ir::Parameter* prm = parameter(in)) {
        if (int64_t(prm->shape.size()) != rank) return false;
        inputs.push_back(in);  // transposed below, once the function is known to move
      } else {
        return false;
      }
    }
    auto axis_of = [&](int64_t a) { return a < 0 ? a + rank : a; };
    Perm after = p;  // the Transpose the output needs
    const Shape out_shape = shape(f.outputs[0]);
    if (kUnary.count(f.type)) {
      if (f.inputs.size() != 1) return false;
    } else if (kBinary.count(f.type)) {
      if (f.inputs.size() != 2) return false;
    } else if (f.type == "Concatenate") {
      const int64_t a = axis_of(f.attrs.get_int("axis", rank - 1));
      if (a < 0 || a >= rank) return false;
      f.attrs.set("axis", p[size_t(a)]);
    } else if (f.type == "Softmax") {
      if (f.inputs.size() != 1) return false;
      const int64_t a = axis_of(f.attrs.get_int("axis", rank - 1));
      if (a < 0 || a >= rank) return false;
      f.attrs.set("axis", p[size_t(a)]);
    } else if (f.type == "BatchNormalization") {
      const std::vector<int64_t> axes = f.attrs.get_ints("axes", {1});
      if (axes.size() != 1 || axis_of(axes[0]) < 0 || axis_of(axes[0]) >= rank) return false;
      f.attrs.set("axes", std::vector<int64_t>{p[size_t(axis_of(axes[0]))]});
    } else if (f.type == "Pad") {  // each axis's (before, after) pair moves with the axis
      if (f.inputs.size() != 1) return false;
      const std::vector<int64_t> pw = f.attrs.get_ints("pad_width", {});
      const int64_t padded = int64_t(pw.size()) / 2;
      if (pw.size() % 2 || padded > rank) return false;
      std::vector<int64_t> full(size_t(2 * rank), 0), moved(size_t(2 * rank), 0);
      std::copy(pw.begin(), pw.end(), full.begin() + 2 * (rank - padded));
      for (int64_t k = 0; k < rank; ++k)
        for (int64_t e = 0; e < 2; ++e) moved[size_t(2 * p[size_t(k)] + e)] = full[size_t(2 * k + e)];
      size_t first = 0;  // leading axes left unpadded need no pair
      while (first + 2 <= moved.size() && moved[first] == 0 && moved[first + 1] == 0) first += 2;
      f.attrs.set("pad_width", std::vector<int64_t>(moved.begin() + std::ptrdiff_t(first), moved.end()));
    } else if (f.type == "Mean" || f.type == "Sum") {
      if (f.inputs.size() != 1 || !f.attrs.has("axes")) return false;
      std::vector<int64_t> axes = f.attrs.get_ints("axes", {});
      std::vector<bool> reduced(size_t(rank), false);
      for (auto& a : axes) {
        a = axis_of(a);
        if (a < 0 || a >= rank) return false;
        reduced[size_t(a)] = true;
        a = p[size_t(a)];
      }
      f.attrs.set("axes", axes);
      if (!f.attrs.get_bool("keep_dims", false)) {
        // The kept axes of y, in order, are x's axes p[k]; x's reduction keeps them in increasing order.
        std::vector<int64_t> kept;
        for (int64_t k = 0; k < rank; ++k)
          if (!reduced[size_t(k)]) kept.push_back(p[size_t(k)]);
        std::vector<int64_t> sorted = kept;
        std::sort(sorted.begin(), sorted.end());
        after.assign(kept.size(), 0);
        for (size_t k = 0; k < kept.size(); ++k)
          after[k] = std::find(sorted.begin(), sorted.end(), kept[k]) - sorted.begin();
        if (out_shape.size() != kept.size()) return false;
      }
    } else {
      return false;
    }
    if (int64_t(out_shape.size()) != int64_t(after.size())) return false;
    const Perm back = inverse(p);
    for (size_t k = 0; k < inputs.size(); ++k)
      if (const ir::Parameter* prm = parameter(inputs[k]); prm && inputs[k] == f.inputs[k])
        inputs[k] = transposed_parameter(*prm, back);
    f.inputs = inputs;
    const std::string out = f.outputs[0];
    if (is_identity(after)) {
      net_.functions[fi] = f;
    } else {
      const std::string moved = fresh_name(out + "/untransposed");
      add_variable(moved, permute(out_shape, inverse(after)));
      f.outputs[0] = moved;
      net_.functions[fi] = f;
      ir::Function t;
      t.name = fresh_name(f.name + "/transpose");
      t.type = "Transpose";
      t.inputs = {moved};
      t.outputs = {out};
      t.has_param = true;
      t.attrs.set("axes", after);
      net_.functions.insert(net_.functions.begin() + std::ptrdiff_t(fi + 1), t);
    }
    for (const auto& g : gone) erase_function(producer(g));
    return true;
  }

  ir::Model& model_;
  ir::Network& net_;
  const std::set<std::string>& interface_;
};

size_t count_transposes(const ir::Network& net) {
  return size_t(std::count_if(net.functions.begin(), net.functions.end(),
                              [](const ir::Function& f) { return f.type == "Transpose"; }));
}

}  // namespace

std::vector<std::string> fold_transposes(ir::Model& model) {
  std::vector<std::string> lines;
  const auto interface = interface_variables(model);
  for_inference_networks(model, [&](ir::Network& network) {
    const size_t before = count_transposes(network);
    if (before == 0) return;
    const ir::Network original = network;
    const std::vector<ir::Parameter> parameters = model.parameters;
    Sinker sinker(model, network, interface);
    for (size_t steps = 0; steps < 16 * original.functions.size() + 16 && sinker.step(); ++steps) {
    }
    const size_t after = count_transposes(network);
    if (after >= before) {  // nothing gained: the network stays as it was
      network = original;
      model.parameters = parameters;
      return;
    }
    lines.push_back(network.name + ": " + std::to_string(before) + " Transposes -> " + std::to_string(after));
  });
  return lines;
}

}  // namespace nn::formats
