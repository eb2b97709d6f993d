// TensorNormalization, LayerNormalization, InstanceNormalization, GroupNormalization and
// WeightStandardization: the StatNormalization kernel with each op's statistics/parameter layout.
#include <algorithm>

#include "ops/normalization/stat_norm.hpp"

namespace nn::ops {
namespace {

// Normalizes the axes of a list argument (negative counts from the end) and checks them.
std::vector<int> axes_of(const std::vector<int64_t>& given, size_t ndim, const std::string& what) {
  std::vector<int> axes;
  for (int64_t a : given) axes.push_back(normalize_axis(a, ndim, what.c_str()));
  return axes;
}

// A shape of x's rank that keeps x's dims on `axes` and is 1 elsewhere.
Shape keep_dims_on(const Shape& xs, const std::vector<int>& axes) {
  Shape s(xs.size(), 1);
  for (int a : axes) s[a] = xs[a];
  return s;
}

// TensorNormalization: statistics per element of `axes` (over all other axes); beta/gamma of that shape.
class TensorNormalization : public StatNormalization {
 public:
  using StatNormalization::StatNormalization;

 protected:
  NormLayout make_layout(const Variables& in) override {
    const Shape& xs = in[0]->shape();
    const Shape stat = keep_dims_on(xs, axes_of(attrs_.get_ints("axes"), xs.size(), "TensorNormalization: axes"));
    check_param(in, beta_, "beta", stat);
    check_param(in, gamma_, "gamma", stat);
    return {xs, stat, stat, stat};
  }
};

// LayerNormalization: statistics per batch index (over all non-batch axes); beta/gamma shaped like x with
// the batch axes set to 1.
class LayerNormalization : public StatNormalization {
 public:
  using StatNormalization::StatNormalization;

 protected:
  NormLayout make_layout(const Variables& in) override {
    const Shape& xs = in[0]->shape();
    const auto batch = axes_of(attrs_.get_ints("batch_axis"), xs.size(), "LayerNormalization: batch_axis");
    Shape param = xs;
    for (int a : batch) param[a] = 1;
    check_param(in, beta_, "beta", param);
    check_param(in, gamma_, "gamma", param);
    return {xs, keep_dims_on(xs, batch), param, param};
  }
};

// InstanceNormalization: statistics per (batch, channel); beta/gamma either of that shape or broadcastable
// to it with the full channel dim (e.g. (1, C, 1, 1)).
class InstanceNormalization : public StatNormalization {
 public:
  using StatNormalization::StatNormalization;

 protected:
  NormLayout make_layout(const Variables& in) override {
    const Shape& xs = in[0]->shape();
    auto axes = axes_of(attrs_.get_ints("batch_axis"), xs.size(), "InstanceNormalization: batch_axis");
    const int channel =
        normalize_axis(attrs_.get_int("channel_axis"), xs.size(), "InstanceNormalization: channel_axis");
    axes.push_back(channel);
    const Shape adapt = keep_dims_on(xs, axes);
    auto check = [&](int index, const char* name) {
      if (index < 0) return;
      const Shape& ps = in[index]->shape();
      bool ok = ps.size() == adapt.size() && ps[channel] == adapt[channel];
      for (size_t d = 0; ok && d < ps.size(); ++d) ok = ps[d] == 1 || ps[d] == adapt[d];
      NN_CHECK(ok) << "InstanceNormalization: " << name << " (input " << index << ") has shape " << to_string(ps)
                   << ", expected " << to_string(adapt) << " or a broadcast of it keeping channel axis " << channel
                   << ", for x " << to_string(xs);
    };
    check(beta_, "beta");
    check(gamma_, "gamma");
    return {xs, adapt, beta_ < 0 ? adapt : in[beta_]->shape(), gamma_ < 0 ? adapt : in[gamma_]->shape()};
  }
};

// GroupNormalization: the channel axis is split into (num_groups, C / num_groups); statistics per
// (batch, group), taken in that split view (the mean/variance outputs have its rank, x's + 1);
// beta/gamma are per channel: shape (1, ..., C, ..., 1).
class GroupNormalization : public StatNormalization {
 public:
  using StatNormalization::StatNormalization;

 protected:
  NormLayout make_layout(const Variables& in) override {
    const Shape& xs = in[0]->shape();
    const int channel =
        normalize_axis(attrs_.get_int("channel_axis"), xs.size(), "GroupNormalization: channel_axis");
    const int64_t groups = attrs_.get_int("num_groups");
    NN_CHECK(groups > 0 && xs[channel] % groups == 0)
        << "GroupNormalization: channel dim " << xs[channel] << " (axis " << channel
        << ") must be a multiple of num_groups " << groups << ", x " << to_string(xs);
    Shape param(xs.size(), 1);
    param[channel] = xs[channel];
    check_param(in, beta_, "beta", param);
    check_param(in, gamma_, "gamma", param);
    Shape work(xs.begin(), xs.begin() + channel);
    work.push_back(groups);
    work.push_back(xs[channel] / groups);
    work.insert(work.end(), xs.begin() + channel + 1, xs.end());
    // As upstream, batch_axis indexes the split view (axes before the channel axis are unchanged).
    auto axes = axes_of(attrs_.get_ints("batch_axis"), work.size(), "GroupNormalization: batch_axis");
    axes.push_back(channel);
    Shape work_param(work.size(), 1);
    work_param[channel] = groups;
    work_param[channel + 1] = xs[channel] / groups;
    return {work, keep_dims_on(work, axes), work_param, work_param};
  }
};

// WeightStandardization: w standardized per output channel (no affine).
class WeightStandardization : public StatNormalization {
 public:
  WeightStandardization(const OpSchema& s, const Context& c, const Attrs& a) : StatNormalization(s, c, a) {
    no_scale_ = no_bias_ = true;
    beta_ = gamma_ = -1;
  }

 protected:
  NormLayout make_layout(const Variables& in) override {
    const Shape& ws = in[0]->shape();
    const int channel =
        normalize_axis(attrs_.get_int("channel_axis"), ws.size(), "WeightStandardization: channel_axis");
    const Shape stat = keep_dims_on(ws, {channel});
    return {ws, stat, stat, stat};
  }
};

// Inputs x, beta, gamma and the shared eps/no_scale/no_bias arguments.
SchemaBuilder affine_norm_schema(const char* name, const char* doc) {
  SchemaBuilder b(name, "Normalization");
  b.doc(doc).in("x").in_optional("beta", true).in_optional("gamma", true);
  return b;
}
void finish_affine_norm(OpRegistry& r, SchemaBuilder& b, FunctionFactory f) {
  b.arg("eps", AttrType::kFloat, AttrValue(1e-5))
      .arg("no_scale", AttrType::kBool, AttrValue(false))
      .arg("no_bias", AttrType::kBool, AttrValue(false))
      .out("y");
  OpSchema s = b.build();
  const std::string name = s.name;
  r.add_schema(std::move(s));
  r.add_kernel(name, "cpu", "float", std::move(f));
}

}  // namespace

void register_tensor_normalization(OpRegistry& r) {
  auto b = affine_norm_schema("TensorNormalization", "standardize per element of `axes`, then scale and shift");
  b.arg("axes", AttrType::kInts, AttrValue(std::vector<int64_t>{1}));
  finish_affine_norm(r, b, make_factory<TensorNormalization>());
}

void register_layer_normalization(OpRegistry& r) {
  auto b = affine_norm_schema("LayerNormalization", "standardize each sample over its non-batch axes");
  b.arg("batch_axis", AttrType::kInts, AttrValue(std::vector<int64_t>{0}));
  finish_affine_norm(r, b, make_factory<LayerNormalization>());
}

void register_instance_normalization(OpRegistry& r) {
  auto b = affine_norm_schema("InstanceNormalization", "standardize each (sample, channel) over the other axes");
  b.arg("channel_axis", AttrType::kInt, AttrValue(int64_t(1)))
      .arg("batch_axis", AttrType::kInts, AttrValue(std::vector<int64_t>{0}));
  finish_affine_norm(r, b, make_factory<InstanceNormalization>());
}

void register_group_normalization(OpRegistry& r) {
  auto b = affine_norm_schema("GroupNormalization", "standardize each (sample, channel group)");
  b.arg("num_groups", AttrType::kInt, AttrValue(int64_t(1)))
      .arg("channel_axis", AttrType::kInt, AttrValue(int64_t(1)))
      .arg("batch_axis", AttrType::kInts, AttrValue(std::vector<int64_t>{0}));
  finish_affine_norm(r, b, make_factory<GroupNormalization>());
}

void register_weight_standardization(OpRegistry& r) {
  register_cpu<WeightStandardization>(r, SchemaBuilder("WeightStandardization", "Normalization")
                                             .doc("standardize weights per output channel")
                                             .in("w")
                                             .arg("channel_axis", AttrType::kInt, AttrValue(int64_t(0)))
                                             .arg("eps", AttrType::kFloat, AttrValue(1e-5))
                                             .out("w_ws")
                                             .build());
}

}  // namespace nn::ops
