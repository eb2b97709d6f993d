// A channel concatenation that only convolutions read (directly or through a MaxPooling) is dropped: each
// convolution runs once per part, summing into the previous part's output (see inference_passes.hpp).
#include <algorithm>
#include <numeric>
#include <optional>

#include "inference_pass_common.hpp"
#include "inference_passes.hpp"
#include "nn/ops/op_registry.hpp"

namespace nn::formats {
using namespace pass_common;
namespace {

Attrs completed(const ir::Function& f) { return OpRegistry::instance().get(f.type).complete(f.attrs); }

// Whether `f` is a convolution that can run part by part over `channels` input channels: group 1, channels
// first, its weights a parameter, a bias parameter or none (no residual, no batch normalization).
bool splittable_conv(const ir::Model& model, const ir::Function& f, int64_t channels) {
  if ((f.type != "Convolution" && f.type != "FusedConvolution") || f.outputs.size() != 1 || f.inputs.size() < 2 ||
      f.inputs.size() > 3)
    return false;
  const Attrs a = completed(f);
  if (a.get_int("group") != 1 || a.get_bool("channel_last") || a.get_int("base_axis") != 1) return false;
  const ir::Parameter* w = find_param(model, f.inputs[1]);
  if (!w || w->shape.size() < 3 || w->shape[1] != channels || int64_t(w->data.size()) != shape_size(w->shape) ||
      std::any_of(w->shape.begin(), w->shape.end(), [](int64_t d) { return d <= 0; }))
    return false;
  if (f.inputs.size() == 3) {  // a bias parameter, not a residual
    const ir::Parameter* b = find_param(model, f.inputs[2]);
    if (!b || b->shape.size() != 1) return false;
  }
  return true;
}

// Whether convolution `f` gains from running over `parts` parts of its input variable `in`: the split saves
// copying the input (the concatenation) and costs copying the output once per part after the first (the sum
// so far goes into the next part's output). squeezenet's classifier (512 -> 1000 channels) broke even.
bool split_pays(const ir::Network& n, const ir::Function& f, const std::string& in, size_t parts) {
  const ir::Variable* x = n.find_variable(in);
  const ir::Variable* y = n.find_variable(f.outputs[0]);
  auto per_sample = [](const Shape& s) {  // the batch axis may be unknown (-1) in a file
    int64_t size = 1;
    for (size_t i = 1; i < s.size(); ++i) size *= s[i];
    return size;
  };
  return x && y && x->shape.size() >= 3 && y->shape.size() >= 3 &&
         int64_t(parts - 1) * per_sample(y->shape) < per_sample(x->shape);
}

// A reader of the concatenation: a convolution, with the MaxPooling between them or none.
struct Reader {
  size_t pool = kNoFunction, conv = kNoFunction;
};

// The readers of the concatenation's output `cat` of `parts` parts when every one of them reads it as its
// first input only, and is a splittable convolution that gains from the split or a MaxPooling whose output only
// such a convolution reads; else none.
std::vector<Reader> readers_of(const ir::Model& model, const ir::Network& n, const std::string& cat,
                               int64_t channels, size_t parts, const std::map<std::string, int>& uses,
                               const std::set<std::string>& interface) {
  std::vector<Reader> readers;
  for (size_t j = 0; j < n.functions.size(); ++j) {
    const ir::Function& f = n.functions[j];
    const auto reads = std::count(f.inputs.begin(), f.inputs.end(), cat);
    if (reads == 0) continue;
    if (reads > 1 || f.inputs[0] != cat) return {};
    if (splittable_conv(model, f, channels) && split_pays(n, f, cat, parts)) {
      readers.push_back({kNoFunction, j});
      continue;
    }
    if (f.type != "MaxPooling" || f.outputs.size() != 1 || completed(f).get_bool("channel_last")) return {};
    const ir::Variable* pooled = n.find_variable(f.outputs[0]);
    const size_t k = sole_consumer(n, f.outputs[0], uses, interface);
    if (!pooled || pooled->shape.size() < 3 || k == kNoFunction || n.functions[k].inputs[0] != f.outputs[0] ||
        !splittable_conv(model, n.functions[k], channels) || !split_pays(n, n.functions[k], f.outputs[0], parts))
      return {};
    readers.push_back({j, k});
  }
  return readers;
}

// Input channels [first, first + count) of convolution weights w (out, in, kernel...).
std::vector<float> weight_channels(const ir::Parameter& w, int64_t first, int64_t count) {
  const int64_t out = w.shape[0], in = w.shape[1], kernel = int64_t(w.data.size()) / (out * in);
  std::vector<float> part(size_t(out * count * kernel));
  for (int64_t o = 0; o < out; ++o)
    std::copy_n(w.data.begin() + (o * in + first) * kernel, count * kernel, part.begin() + o * count * kernel);
  return part;
}

// `base`, or `base` with underscores appended, whichever no variable of `n` and no parameter of the model has yet
// (a file may already hold the names the pass makes up).
std::string unused_name(const ir::Model& model, const ir::Network& n, std::string base) {
  while (n.find_variable(base) || find_param(model, base)) base += "_";
  return base;
}

// A variable like `like` named `name` with `channels` channels (axis 1).
void add_variable_like(ir::Network& n, const ir::Variable& like, const std::string& name, int64_t channels) {
  ir::Variable v = like;
  v.name = name;
  v.shape[1] = channels;
  n.variables.push_back(std::move(v));
}

// The functions that replace reader `r` of the concatenation of `parts` (with `channels` each): a MaxPooling
// per part when r has one, then the convolution per part, each after the first summing into its predecessor;
// the last writes the convolution's output with its nonlinearity.
std::vector<ir::Function> split_reader(ir::Model& model, ir::Network& n, const Reader& r,
                                       const std::vector<std::string>& parts,
                                       const std::vector<int64_t>& channels) {
  std::vector<ir::Function> made;
  std::vector<std::string> inputs = parts;
  if (r.pool != kNoFunction) {
    const ir::Function pool = n.functions[r.pool];
    const ir::Variable pooled = *n.find_variable(pool.outputs[0]);
    for (size_t i = 0; i < parts.size(); ++i) {
      ir::Function p = pool;
      p.name = pool.name + "/part" + std::to_string(i);
      p.inputs = {parts[i]};
      p.outputs = {unused_name(model, n, pool.outputs[0] + "/part" + std::to_string(i))};
      add_variable_like(n, pooled, p.outputs[0], channels[i]);
      inputs[i] = p.outputs[0];
      made.push_back(std::move(p));
    }
  }
  const ir::Function conv = n.functions[r.conv];
  const ir::Parameter w = *find_param(model, conv.inputs[1]);
  const ir::Variable* out_variable = n.find_variable(conv.outputs[0]);
  const std::optional<ir::Variable> out = out_variable ? std::optional(*out_variable) : std::nullopt;  // n grows
  const Attrs attrs = completed(conv);
  int64_t first = 0;
  std::string previous;
  for (size_t i = 0; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    ir::Function c = conv;
    c.name = conv.name + "/part" + std::to_string(i);
    c.type = "FusedConvolution";
    c.attrs = attrs;
    if (conv.type == "Convolution" || !last) {
      c.attrs.set("nonlinearity", std::string("identity"));
      c.attrs.set("nonlinearity_args", std::vector<double>{});
    }
    const std::string w_name = unused_name(model, n, c.name + "/W");
    Shape w_shape = w.shape;
    w_shape[1] = channels[i];
    put_parameter(model, n, w_name, w_shape, weight_channels(w, first, channels[i]));
    first += channels[i];
    c.inputs = {inputs[i], w_name};
    if (i == 0 && conv.inputs.size() == 3) c.inputs.push_back(conv.inputs[2]);  // the bias, once
    if (i > 0) c.inputs.push_back(previous);                                    // z: the sum so far
    if (!last) {
      c.outputs = {unused_name(model, n, conv.outputs[0] + "/part" + std::to_string(i))};
      if (out) add_variable_like(n, *out, c.outputs[0], out->shape.size() > 1 ? out->shape[1] : 0);
    }
    previous = c.outputs[0];
    made.push_back(std::move(c));
  }
  return made;
}

// Splits the readers of concatenation `i` of network `n` when all of them allow it; its description or "".
std::string split_one(ir::Model& model, ir::Network& n, size_t i, const std::set<std::string>& interface) {
  const ir::Function cat = n.functions[i];
  if (cat.type != "Concatenate" || cat.inputs.size() < 2 || cat.outputs.size() != 1 ||
      interface.count(cat.outputs[0]) || completed(cat).get_int("axis") != 1)
    return "";
  const ir::Variable* joined = n.find_variable(cat.outputs[0]);
  if (!joined || joined->shape.size() < 3) return "";
  std::vector<int64_t> channels;
  for (const auto& in : cat.inputs) {
    const ir::Variable* v = n.find_variable(in);
    if (!v || v->shape.size() != joined->shape.size() || v->shape[1] <= 0) return "";  // known channels only
    channels.push_back(v->shape[1]);
  }
  if (std::accumulate(channels.begin(), channels.end(), int64_t(0)) != joined->shape[1]) return "";
  const auto readers =
      readers_of(model, n, cat.outputs[0], joined->shape[1], channels.size(), consumer_counts(n), interface);
  if (readers.empty()) return "";

  // The new list: the concatenation and the poolings go, each convolution's place takes its replacements.
  std::map<size_t, std::vector<ir::Function>> replacement;
  std::set<size_t> gone{i};
  std::set<std::string> dropped{cat.outputs[0]};
  std::string what = cat.name + " dropped:";
  for (const Reader& r : readers) {
    replacement[r.conv] = split_reader(model, n, r, cat.inputs, channels);
    what += " " + n.functions[r.conv].name;
    if (r.pool != kNoFunction) {
      gone.insert(r.pool);
      dropped.insert(n.functions[r.pool].outputs[0]);
      what += " (after " + n.functions[r.pool].name + ")";
    }
  }
  std::vector<ir::Function> functions;
  for (size_t j = 0; j < n.functions.size(); ++j) {
    auto it = replacement.find(j);
    if (it != replacement.end())
      functions.insert(functions.end(), it->second.begin(), it->second.end());
    else if (!gone.count(j))
      functions.push_back(std::move(n.functions[j]));
  }
  n.functions = std::move(functions);
  for (const auto& v : dropped) erase_variable(n, v);
  return what + " run over its " + std::to_string(channels.size()) + " parts";
}

}  // namespace

std::vector<std::string> split_concatenated_convolutions(ir::Model& model) {
  std::vector<std::string> lines;
  const auto interface = interface_variables(model);
  for_inference_networks(model, [&](ir::Network& network) {
    for (size_t i = 0; i < network.functions.size(); ++i) {
      const std::string what = split_one(model, network, i, interface);
      if (what.empty()) continue;
      lines.push_back(network.name + ": " + what);
      --i;  // the concatenation's index now holds the next function
    }
  });
  return lines;
}

}  // namespace nn::formats
