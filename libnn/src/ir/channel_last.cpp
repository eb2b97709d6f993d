// Channel-last Convolution and pooling: a Transpose before and after the channel-first kernel.
#include "ir/channel_last.hpp"

#include "nn/core/error.hpp"
#include "nn/ops/op_registry.hpp"

namespace nn::ir {
namespace {

VariablePtr transposed(const VariablePtr& x, const std::vector<int64_t>& axes, const nn::Context& context) {
  Attrs a;
  a.set("axes", axes);
  return connect(OpRegistry::instance().create("Transpose", a, context), {x}).at(0);
}

// The permutation moving axis `from` to position `to` (to <= from), the others keeping their order.
std::vector<int64_t> move_axis(size_t rank, size_t from, size_t to) {
  std::vector<int64_t> p;
  for (size_t i = 0; i < rank; ++i)
    if (i != from) p.push_back(int64_t(i));
  p.insert(p.begin() + int64_t(to), int64_t(from));
  return p;
}

std::vector<int64_t> inverse(const std::vector<int64_t>& p) {
  std::vector<int64_t> q(p.size());
  for (size_t i = 0; i < p.size(); ++i) q[size_t(p[i])] = int64_t(i);
  return q;
}

}  // namespace

bool lowers_channel_last(const FunctionSpec& spec) {
  return (spec.type == "Convolution" || spec.type == "MaxPooling" || spec.type == "AveragePooling" ||
          spec.type == "SumPooling") &&
         spec.attrs.get_bool("channel_last", false);
}

std::vector<VariablePtr> connect_channel_last(const FunctionSpec& spec, const std::vector<VariablePtr>& inputs,
                                              const nn::Context& context) {
  NN_CHECK(!inputs.empty()) << "an input is required";
  const size_t rank = inputs[0]->shape().size();
  NN_CHECK(rank >= 2) << "channel_last=true needs an input of rank 2 or more, not "
                      << to_string(inputs[0]->shape());
  size_t channel_at;  // where the channel goes in the channel-first layout
  if (spec.type == "Convolution") {
    channel_at = size_t(spec.attrs.get_int("base_axis", 1));
  } else {
    const size_t spatial = spec.attrs.get_ints("kernel", {}).size();
    NN_CHECK(spatial + 1 <= rank) << "kernel of " << spatial << " axes for input "
                                  << to_string(inputs[0]->shape());
    channel_at = rank - 1 - spatial;
  }
  NN_CHECK(channel_at < rank) << "base_axis " << channel_at << " out of range for input "
                              << to_string(inputs[0]->shape());
  const std::vector<int64_t> to_first = move_axis(rank, rank - 1, channel_at);
  std::vector<VariablePtr> ins = inputs;
  ins[0] = transposed(inputs[0], to_first, context);
  if (spec.type == "Convolution") {
    NN_CHECK(ins.size() >= 2 && ins[1]->shape().size() >= 2) << "a weight of rank 2 or more is required";
    ins[1] = transposed(inputs[1], move_axis(ins[1]->shape().size(), ins[1]->shape().size() - 1, 1), context);
  }
  Attrs attrs = spec.attrs;
  attrs.set("channel_last", false);
  std::vector<VariablePtr> outs = connect(OpRegistry::instance().create(spec.type, attrs, context), ins);
  for (auto& y : outs) y = transposed(y, inverse(to_first), context);
  return outs;
}

}  // namespace nn::ir
