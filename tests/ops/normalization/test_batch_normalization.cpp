// BatchNormalization: batch-stat and running-stat modes against a double reference, running-stat update.
#include <gtest/gtest.h>

#include <cmath>

#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {

// Per-channel statistics of x (outer, C, inner) around axis 1 of a 3-D shape.
struct Stats {
  std::vector<double> mean, var;  // biased variance
};
Stats batch_stats(const RefArray& x) {
  const int64_t n0 = x.shape[0], c = x.shape[1], n2 = x.shape[2];
  Stats s{std::vector<double>(c, 0.0), std::vector<double>(c, 0.0)};
  for (int64_t k = 0; k < c; ++k) {
    for (int64_t i = 0; i < n0; ++i)
      for (int64_t j = 0; j < n2; ++j) s.mean[k] += x.data[(i * c + k) * n2 + j];
    s.mean[k] /= double(n0 * n2);
    for (int64_t i = 0; i < n0; ++i)
      for (int64_t j = 0; j < n2; ++j) s.var[k] += std::pow(x.data[(i * c + k) * n2 + j] - s.mean[k], 2);
    s.var[k] /= double(n0 * n2);
  }
  return s;
}

// Reference y for inputs ordered x, [beta], [gamma], mean, variance.
RefArray bn_reference(const RefInputs& in, const nn::Attrs& a) {
  const bool no_bias = a.get_bool("no_bias", false), no_scale = a.get_bool("no_scale", false);
  const bool batch_stat = a.get_bool("batch_stat", true);
  const double eps = a.get_float("eps", 1e-5);
  const RefArray& x = in[0];
  const RefArray* beta = no_bias ? nullptr : &in[1];
  const RefArray* gamma = no_scale ? nullptr : &in[no_bias ? 1 : 2];
  const RefArray& rmean = in[in.size() - 2];
  const RefArray& rvar = in[in.size() - 1];
  Stats s = batch_stat ? batch_stats(x) : Stats{rmean.data, rvar.data};
  const int64_t c = x.shape[1], n2 = x.shape[2];
  RefArray y{x.shape, x.data};
  for (size_t i = 0; i < y.data.size(); ++i) {
    const int64_t k = (int64_t(i) / n2) % c;
    y.data[i] = (x.data[i] - s.mean[k]) / std::sqrt(s.var[k] + eps) * (gamma ? gamma->data[k] : 1.0) +
                (beta ? beta->data[k] : 0.0);
  }
  return y;
}

std::vector<RefArray> bn_inputs(std::mt19937& rng, bool with_beta, bool with_gamma) {
  std::vector<RefArray> v{random_input({3, 2, 4}, rng, -2.0, 2.0)};
  if (with_beta) v.push_back(random_input({1, 2, 1}, rng));
  if (with_gamma) v.push_back(random_input({1, 2, 1}, rng, 0.5, 1.5));
  v.push_back(random_input({1, 2, 1}, rng));
  v.push_back(random_input({1, 2, 1}, rng, 0.5, 1.5));
  return v;
}

Reference bn_ref() {
  return [](const RefInputs& in, const nn::Attrs& a) { return std::vector<RefArray>{bn_reference(in, a)}; };
}

}  // namespace

TEST(BatchNormalization, BatchStatForwardBackward) {
  std::mt19937 rng(1);
  // Gradients w.r.t. x, beta, gamma; the running statistics do not influence y (their gradient is 0).
  run_op_test({"BatchNormalization", {}, bn_inputs(rng, true, true), bn_ref()});
}

TEST(BatchNormalization, BatchStatNoScaleNoBias) {
  std::mt19937 rng(2);
  run_op_test(
      {"BatchNormalization", {{"no_scale", true}, {"no_bias", true}}, bn_inputs(rng, false, false), bn_ref()});
  run_op_test({"BatchNormalization", {{"no_bias", true}}, bn_inputs(rng, false, true), bn_ref()});
}

TEST(BatchNormalization, InferenceForwardBackward) {
  std::mt19937 rng(3);
  run_op_test({"BatchNormalization", {{"batch_stat", false}}, bn_inputs(rng, true, true), bn_ref()});
  run_op_test(
      {"BatchNormalization", {{"batch_stat", false}, {"no_scale", true}}, bn_inputs(rng, true, false), bn_ref()});
}

TEST(BatchNormalization, RunningStatsUpdatedAfterForward) {
  std::mt19937 rng(4);
  auto inputs = bn_inputs(rng, true, true);
  const double decay = 0.8;
  auto f = nn::OpRegistry::instance().create("BatchNormalization", {{"decay_rate", decay}}, nn::cpu_context());
  std::vector<nn::VariablePtr> vars;
  nn::Variables raw;
  for (const auto& a : inputs) {
    auto v = nn::Variable::create(a.shape);
    float* p = v->data()->cast<float>(true);
    for (size_t i = 0; i < a.data.size(); ++i) p[i] = float(a.data[i]);
    vars.push_back(v);
    raw.push_back(v.get());
  }
  auto y = nn::Variable::create();
  f->setup(raw, {y.get()});
  f->forward(raw, {y.get()});
  Stats s = batch_stats(inputs[0]);
  const double n = 3 * 4;
  auto rm = vars[3]->data()->to_vector(), rv = vars[4]->data()->to_vector();
  for (int k = 0; k < 2; ++k) {
    EXPECT_NEAR(rm[k], decay * inputs[3].data[k] + (1 - decay) * s.mean[k], 1e-5);
    // The running variance takes the unbiased batch variance.
    EXPECT_NEAR(rv[k], decay * inputs[4].data[k] + (1 - decay) * s.var[k] * n / (n - 1), 1e-5);
  }
}

TEST(BatchNormalization, RejectsWrongInputCountAndShapes) {
  std::mt19937 rng(5);
  auto inputs = bn_inputs(rng, true, true);
  inputs.erase(inputs.begin() + 1);  // 4 inputs but neither no_bias nor no_scale
  EXPECT_THROW(run_op_test({"BatchNormalization", {}, inputs, bn_ref()}), nn::Error);
  auto bad = bn_inputs(rng, true, true);
  bad[3] = random_input({1, 3, 1}, rng);
  EXPECT_THROW(run_op_test({"BatchNormalization", {}, bad, bn_ref()}), nn::Error);
}
