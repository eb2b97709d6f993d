// TensorNormalization, LayerNormalization, InstanceNormalization, GroupNormalization, WeightStandardization
// against double references: forward, backward, optional affine, statistics outputs, shape errors.
#include <gtest/gtest.h>

#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "norm_ref.hpp"
#include "op_tester.hpp"

using namespace nn::test;
using Ints = std::vector<int64_t>;

namespace {

// Inputs x[, beta][, gamma] in upstream order.
std::vector<RefArray> norm_inputs(std::mt19937& rng, const nn::Shape& xs, const nn::Shape& beta_shape,
                                  const nn::Shape& gamma_shape, bool with_beta, bool with_gamma) {
  std::vector<RefArray> v{random_input(xs, rng, -2.0, 2.0)};
  if (with_beta) v.push_back(random_input(beta_shape, rng));
  if (with_gamma) v.push_back(random_input(gamma_shape, rng, 0.5, 1.5));
  return v;
}

// beta/gamma pointers from inputs ordered x, [beta], [gamma].
std::pair<const RefArray*, const RefArray*> affine_of(const RefInputs& in, const nn::Attrs& a) {
  const bool no_bias = a.get_bool("no_bias", false), no_scale = a.get_bool("no_scale", false);
  return {no_bias ? nullptr : &in[1], no_scale ? nullptr : &in[no_bias ? 1 : 2]};
}

// A reference grouping x by the listed (kept) axes.
Reference kept_axes_ref(std::function<std::vector<int>(const nn::Shape&, const nn::Attrs&)> kept) {
  return [kept](const RefInputs& in, const nn::Attrs& a) {
    const auto axes = kept(in[0].shape, a);
    auto [beta, gamma] = affine_of(in, a);
    auto group = [&](const std::vector<int64_t>& idx) { return key_of(idx, in[0].shape, axes); };
    return std::vector<RefArray>{standardize_ref(in[0], group, a.get_float("eps", 1e-5), beta, gamma).y};
  };
}

std::vector<int> to_int_axes(const Ints& v) { return std::vector<int>(v.begin(), v.end()); }

Reference tensor_norm_ref() {
  return kept_axes_ref([](const nn::Shape&, const nn::Attrs& a) { return to_int_axes(a.get_ints("axes", {1})); });
}
Reference layer_norm_ref() {
  return kept_axes_ref(
      [](const nn::Shape&, const nn::Attrs& a) { return to_int_axes(a.get_ints("batch_axis", {0})); });
}
Reference instance_norm_ref() {
  return kept_axes_ref([](const nn::Shape&, const nn::Attrs& a) {
    auto axes = to_int_axes(a.get_ints("batch_axis", {0}));
    axes.push_back(int(a.get_int("channel_axis", 1)));
    return axes;
  });
}

// Group norm on (N, C, ...) with channel axis 1 and batch axis 0: groups of C / G consecutive channels.
Reference group_norm_ref() {
  return [](const RefInputs& in, const nn::Attrs& a) {
    const int64_t groups = a.get_int("num_groups", 1), c = in[0].shape[1];
    auto [beta, gamma] = affine_of(in, a);
    auto group = [&](const std::vector<int64_t>& idx) { return idx[0] * groups + idx[1] / (c / groups); };
    return std::vector<RefArray>{standardize_ref(in[0], group, a.get_float("eps", 1e-5), beta, gamma).y};
  };
}

// Runs forward with three outputs (y, mean, variance) and returns them.
std::vector<std::vector<float>> forward_with_stats(const std::string& type, const nn::Attrs& attrs,
                                                   const std::vector<RefArray>& inputs,
                                                   std::vector<nn::Shape>* shapes) {
  auto f = nn::OpRegistry::instance().create(type, attrs, nn::cpu_context());
  std::vector<nn::VariablePtr> keep;
  nn::Variables in, out;
  for (const auto& a : inputs) {
    auto v = nn::Variable::create(a.shape);
    float* p = v->data()->cast<float>(true);
    for (size_t i = 0; i < a.data.size(); ++i) p[i] = float(a.data[i]);
    keep.push_back(v);
    in.push_back(v.get());
  }
  for (int o = 0; o < 3; ++o) {
    keep.push_back(nn::Variable::create());
    out.push_back(keep.back().get());
  }
  f->setup(in, out);
  f->forward(in, out);
  std::vector<std::vector<float>> r;
  for (auto* o : out) {
    r.push_back(o->data()->to_vector());
    if (shapes) shapes->push_back(o->shape());
  }
  return r;
}

}  // namespace

TEST(TensorNormalization, ForwardBackward) {
  std::mt19937 rng(1);
  run_op_test({"TensorNormalization",
               {},
               norm_inputs(rng, {3, 2, 4}, {1, 2, 1}, {1, 2, 1}, true, true),
               tensor_norm_ref()});
  run_op_test({"TensorNormalization",
               {{"axes", Ints{0, 2}}},
               norm_inputs(rng, {2, 3, 2, 2}, {2, 1, 2, 1}, {2, 1, 2, 1}, true, true),
               tensor_norm_ref()});
  run_op_test({"TensorNormalization",
               {{"no_scale", true}, {"no_bias", true}},
               norm_inputs(rng, {3, 2, 4}, {}, {}, false, false),
               tensor_norm_ref()});
  run_op_test({"TensorNormalization",
               {{"no_bias", true}, {"eps", 0.01}},
               norm_inputs(rng, {3, 2, 4}, {}, {1, 2, 1}, false, true),
               tensor_norm_ref()});
}

TEST(TensorNormalization, StatisticsOutputs) {
  std::mt19937 rng(2);
  auto inputs = norm_inputs(rng, {3, 2, 4}, {1, 2, 1}, {1, 2, 1}, true, true);
  std::vector<nn::Shape> shapes;
  auto outs = forward_with_stats("TensorNormalization", {}, inputs, &shapes);
  EXPECT_EQ(shapes[1], (nn::Shape{1, 2, 1}));
  auto group = [](const std::vector<int64_t>& idx) { return idx[1]; };
  auto ref = standardize_ref(inputs[0], group, 1e-5, nullptr, nullptr);
  for (int c = 0; c < 2; ++c) {
    EXPECT_NEAR(outs[1][c], ref.mean[c], 1e-5);
    EXPECT_NEAR(outs[2][c], ref.var[c], 1e-5);
  }
}

TEST(TensorNormalization, RejectsBadParamShape) {
  std::mt19937 rng(3);
  auto inputs = norm_inputs(rng, {3, 2, 4}, {1, 3, 1}, {1, 2, 1}, true, true);
  EXPECT_THROW(forward_with_stats("TensorNormalization", {}, inputs, nullptr), nn::Error);
  inputs.pop_back();
  EXPECT_THROW(forward_with_stats("TensorNormalization", {}, inputs, nullptr), nn::Error);
}

TEST(LayerNormalization, ForwardBackward) {
  std::mt19937 rng(4);
  run_op_test(
      {"LayerNormalization", {}, norm_inputs(rng, {3, 2, 4}, {1, 2, 4}, {1, 2, 4}, true, true), layer_norm_ref()});
  run_op_test({"LayerNormalization",
               {{"batch_axis", Ints{0, 1}}, {"no_scale", true}},
               norm_inputs(rng, {2, 2, 5}, {1, 1, 5}, {}, true, false),
               layer_norm_ref()});
  auto bad = norm_inputs(rng, {3, 2, 4}, {1, 2, 1}, {1, 2, 4}, true, true);
  EXPECT_THROW(forward_with_stats("LayerNormalization", {}, bad, nullptr), nn::Error);
}

TEST(LayerNormalization, StatisticsOutputs) {
  std::mt19937 rng(5);
  auto inputs = norm_inputs(rng, {3, 2, 4}, {1, 2, 4}, {1, 2, 4}, true, true);
  std::vector<nn::Shape> shapes;
  auto outs = forward_with_stats("LayerNormalization", {}, inputs, &shapes);
  EXPECT_EQ(shapes[2], (nn::Shape{3, 1, 1}));
  auto ref = standardize_ref(
      inputs[0], [](const std::vector<int64_t>& i) { return i[0]; }, 1e-5, nullptr, nullptr);
  for (int b = 0; b < 3; ++b) EXPECT_NEAR(outs[2][b], ref.var[b], 1e-5);
}

TEST(InstanceNormalization, ForwardBackward) {
  std::mt19937 rng(6);
  run_op_test({"InstanceNormalization",
               {},
               norm_inputs(rng, {2, 3, 4}, {2, 3, 1}, {2, 3, 1}, true, true),
               instance_norm_ref()});
  // Channel-only parameters broadcast over the batch (their gradient sums over it).
  run_op_test({"InstanceNormalization",
               {},
               norm_inputs(rng, {2, 3, 4}, {1, 3, 1}, {1, 3, 1}, true, true),
               instance_norm_ref()});
  run_op_test({"InstanceNormalization",
               {{"channel_axis", int64_t(2)}, {"no_bias", true}},
               norm_inputs(rng, {2, 3, 2}, {}, {1, 1, 2}, false, true),
               instance_norm_ref()});
  auto bad = norm_inputs(rng, {2, 3, 4}, {1, 2, 1}, {1, 3, 1}, true, true);
  EXPECT_THROW(forward_with_stats("InstanceNormalization", {}, bad, nullptr), nn::Error);
}

TEST(GroupNormalization, ForwardBackward) {
  std::mt19937 rng(7);
  run_op_test({"GroupNormalization",
               {{"num_groups", int64_t(2)}},
               norm_inputs(rng, {2, 4, 3}, {1, 4, 1}, {1, 4, 1}, true, true),
               group_norm_ref()});
  run_op_test({"GroupNormalization",
               {},
               norm_inputs(rng, {2, 3, 2, 2}, {1, 3, 1, 1}, {1, 3, 1, 1}, true, true),
               group_norm_ref()});
  run_op_test({"GroupNormalization",
               {{"num_groups", int64_t(3)}, {"no_scale", true}, {"no_bias", true}},
               norm_inputs(rng, {2, 6, 2}, {}, {}, false, false),
               group_norm_ref()});
}

TEST(GroupNormalization, StatisticsShapeAndErrors) {
  std::mt19937 rng(8);
  auto inputs = norm_inputs(rng, {2, 4, 3}, {1, 4, 1}, {1, 4, 1}, true, true);
  std::vector<nn::Shape> shapes;
  auto outs = forward_with_stats("GroupNormalization", {{"num_groups", int64_t(2)}}, inputs, &shapes);
  EXPECT_EQ(shapes[1], (nn::Shape{2, 2, 1, 1}));
  auto ref = standardize_ref(
      inputs[0], [](const std::vector<int64_t>& i) { return i[0] * 2 + i[1] / 2; }, 1e-5, nullptr, nullptr);
  for (int g = 0; g < 4; ++g) EXPECT_NEAR(outs[1][g], ref.mean[g], 1e-5);
  EXPECT_THROW(forward_with_stats("GroupNormalization", {{"num_groups", int64_t(3)}}, inputs, nullptr), nn::Error);
}

TEST(WeightStandardization, ForwardBackward) {
  std::mt19937 rng(9);
  auto ref = kept_axes_ref(
      [](const nn::Shape&, const nn::Attrs& a) { return std::vector<int>{int(a.get_int("channel_axis", 0))}; });
  auto ws_ref = [ref](const RefInputs& in, const nn::Attrs& a) {
    nn::Attrs b = a;
    b.set("no_scale", true);
    b.set("no_bias", true);
    return ref(in, b);
  };
  run_op_test({"WeightStandardization", {}, {random_input({3, 2, 2, 2}, rng)}, ws_ref});
  run_op_test({"WeightStandardization",
               {{"channel_axis", int64_t(1)}, {"eps", 1e-3}},
               {random_input({4, 3}, rng)},
               ws_ref});
}
