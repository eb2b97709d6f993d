// Batch split check and rebatch: a forward walk that marks each variable as per-sample (axis 0 = the batch) or
// constant, accepting only functions whose rule says they keep samples apart.
#include "formats/passes/batch_split.hpp"

#include <algorithm>
#include <set>

#include "nn/ir/function_label.hpp"

namespace nn::formats {
namespace {

// How a function may treat axis 0, by type. Anything not listed is refused.
enum class Rule {
  kElementwise,  // each output element from the same element of each input (inputs of the output's shape)
  kBroadcast,    // numpy broadcasting: constants must not span axis 0
  kLayer,       // input 0 per sample from base_axis on; the others constants (or a residual of the output's shape)
  kWindow,      // pooling over the trailing len(kernel) axes
  kGlobalPool,  // reduces the axes after 1
  kAxis,        // works along `axis` (default: the last)
  kReshape,     // keeps axis 0: each sample's elements stay its own
  kTranspose,   // axes[0] must stay 0
  kReduce,      // reduces `axes`, which must be given and leave axis 0
};

const std::map<std::string, Rule>& rules() {
  static const std::map<std::string, Rule> table = [] {
    std::map<std::string, Rule> t;
    for (const char* type :
         {"Identity",   "Sigmoid",       "Swish",         "Tanh",      "ReLU",        "LeakyReLU",  "ELU",
          "SELU",       "GELU",          "Mish",          "ReLU6",     "HardSigmoid", "HardTanh",   "LogSigmoid",
          "SoftPlus",   "SoftSign",      "TanhShrink",    "Sinc",      "Sin",         "Cos",        "Sign",
          "Abs",        "Exp",           "Log",           "Round",     "Ceil",        "Floor",      "Tan",
          "Sinh",       "Cosh",          "ASin",          "ACos",      "ATan",        "ASinh",      "ACosh",
          "ATanh",      "Erf",           "AddScalar",     "MulScalar", "PowScalar",   "RSubScalar", "RDivScalar",
          "RPowScalar", "MinimumScalar", "MaximumScalar", "ResetNaN",  "ResetInf",    "IsNaN",      "IsInf",
          "LogicalNot", "AddN",          "MulN"})
      t[type] = Rule::kElementwise;
    for (const char* type : {"Add2", "Sub2", "Mul2", "Div2", "Pow2", "Minimum2", "Maximum2", "ATan2"})
      t[type] = Rule::kBroadcast;
    for (const char* type :
         {"Affine", "Convolution", "DepthwiseConvolution", "Deconvolution", "DepthwiseDeconvolution",
          "FusedConvolution", "BatchNormalization", "FusedBatchNormalization", "PReLU"})
      t[type] = Rule::kLayer;
    for (const char* type : {"MaxPooling", "AveragePooling", "SumPooling", "Unpooling"}) t[type] = Rule::kWindow;
    t["GlobalAveragePooling"] = Rule::kGlobalPool;
    for (const char* type : {"Softmax", "LogSoftmax", "Concatenate"}) t[type] = Rule::kAxis;
    t["Reshape"] = Rule::kReshape;
    t["Transpose"] = Rule::kTranspose;
    for (const char* type : {"Sum", "Mean", "Max", "Min", "Prod"}) t[type] = Rule::kReduce;
    return t;
  }();
  return table;
}

int64_t normalized_axis(int64_t axis, size_t rank) { return axis < 0 ? axis + int64_t(rank) : axis; }

class SplitCheck {
 public:
  explicit SplitCheck(const BatchSplitQuery& q) : q_(q) {}

  // Walks the functions in order; false with why_ set at the first that mixes samples.
  bool run() {
    for (const auto& v : q_.network->variables)
      if (v.type == "Parameter") constant_.insert(v.name);
    for (const auto& name : q_.inputs) {
      if (!batch_leading(name)) return fail("input '" + name + "' does not have the batch on axis 0");
      per_sample_.insert(name);
    }
    for (const auto& f : q_.network->functions)
      if (!accept(f)) return false;
    for (const auto& name : q_.outputs)
      if (!per_sample_.count(name)) return fail("output '" + name + "' is not computed per sample");
    return true;
  }
  const std::set<std::string>& per_sample() const { return per_sample_; }
  const std::string& why() const { return why_; }

 private:
  bool fail(std::string why) {
    why_ = std::move(why);
    return false;
  }
  const Shape* shape(const std::string& name) const {
    auto it = q_.shapes->find(name);
    return it == q_.shapes->end() ? nullptr : &it->second;
  }
  bool batch_leading(const std::string& name) const {
    const Shape* s = shape(name);
    return s && !s->empty() && (*s)[0] == q_.batch;
  }

  bool accept(const ir::Function& f) {
    bool any_sample = false;
    for (const auto& in : f.inputs) {
      if (per_sample_.count(in)) {
        any_sample = true;
      } else if (!constant_.count(in)) {
        return fail(ir::label(f) + ": input '" + in + "' is neither per sample nor constant");
      }
    }
    const bool random = f.type.rfind("Rand", 0) == 0 || f.type == "Dropout";
    if (!any_sample && !random) {  // a constant subgraph: each sub-batch computes the same values
      for (const auto& out : f.outputs) constant_.insert(out);
      return true;
    }
    auto rule = rules().find(f.type);
    if (rule == rules().end()) return fail(ir::label(f) + " may mix samples");
    for (const auto& out : f.outputs)
      if (!batch_leading(out))
        return fail(ir::label(f) + ": output '" + out + "' does not keep the batch on axis 0");
    for (const auto& in : f.inputs)
      if (per_sample_.count(in) && !batch_leading(in))
        return fail(ir::label(f) + ": input '" + in + "' does not keep the batch on axis 0");
    if (!rule_holds(f, rule->second)) return fail(ir::label(f) + " works across axis 0 here");
    for (const auto& out : f.outputs) per_sample_.insert(out);
    return true;
  }

  bool rule_holds(const ir::Function& f, Rule rule) const {
    const Shape& out = *shape(f.outputs.front());
    const size_t rank = out.size();
    auto is_sample = [&](const std::string& v) { return per_sample_.count(v) > 0; };
    switch (rule) {
      case Rule::kElementwise:
        return std::all_of(f.inputs.begin(), f.inputs.end(),
                           [&](const std::string& in) { return is_sample(in) && *shape(in) == out; });
      case Rule::kBroadcast:
        return std::all_of(f.inputs.begin(), f.inputs.end(), [&](const std::string& in) {
          const Shape* s = shape(in);
          if (!s) return false;
          return is_sample(in) ? s->size() == rank : s->size() < rank || (*s)[0] == 1;
        });
      case Rule::kLayer: {
        if (!is_sample(f.inputs.front()) || f.attrs.get_int("base_axis", 1) < 1) return false;
        const auto axes = f.attrs.get_ints("axes", {1});
        if (std::any_of(axes.begin(), axes.end(), [&](int64_t a) { return normalized_axis(a, rank) == 0; }))
          return false;
        return std::all_of(f.inputs.begin() + 1, f.inputs.end(),
                           [&](const std::string& in) { return !is_sample(in) || *shape(in) == out; });
      }
      case Rule::kWindow: {  // channels-last windows end before the last axis
        const size_t last = f.attrs.get_bool("channel_last", false) ? 1 : 0;
        return f.attrs.get_ints("kernel", {}).size() + last < shape(f.inputs.front())->size();
      }
      case Rule::kGlobalPool: return true;
      case Rule::kAxis: {
        const size_t in_rank = shape(f.inputs.front())->size();
        const int64_t axis = normalized_axis(f.attrs.get_int("axis", int64_t(in_rank) - 1), in_rank);
        return axis != 0 && std::all_of(f.inputs.begin(), f.inputs.end(), is_sample);
      }
      case Rule::kReshape: {
        const auto target = f.attrs.get_ints("shape", {});
        return !target.empty() && (target[0] == q_.batch || target[0] == -1);
      }
      case Rule::kTranspose: {
        const auto axes = f.attrs.get_ints("axes", {});
        return !axes.empty() && axes[0] == 0;
      }
      case Rule::kReduce: {
        const size_t in_rank = shape(f.inputs.front())->size();
        const auto axes = f.attrs.get_ints("axes", {});
        return !axes.empty() &&
               std::none_of(axes.begin(), axes.end(), [&](int64_t a) { return normalized_axis(a, in_rank) == 0; });
      }
    }
    return false;
  }

  const BatchSplitQuery& q_;
  std::set<std::string> per_sample_, constant_;
  std::string why_;
};

}  // namespace

std::optional<ir::Network> rebatch_for_split(const BatchSplitQuery& query, int64_t sub_batch,
                                             std::string* why_not) {
  SplitCheck check(query);
  if (!check.run()) {
    if (why_not) *why_not = check.why();
    return std::nullopt;
  }
  ir::Network net = *query.network;
  net.batch_size = sub_batch;
  for (auto& v : net.variables)
    if (check.per_sample().count(v.name) && !v.shape.empty()) v.shape[0] = sub_batch;
  for (auto& f : net.functions) {
    if (f.type != "Reshape" || !check.per_sample().count(f.outputs.front())) continue;
    auto target = f.attrs.get_ints("shape");
    if (target[0] == query.batch) target[0] = sub_batch;
    f.attrs.set("shape", target);
  }
  return net;
}

}  // namespace nn::formats
