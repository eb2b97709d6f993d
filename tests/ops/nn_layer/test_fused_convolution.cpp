// FusedConvolution: convolution (+bias) then optional batch normalization, residual add and activation,
// against a double-precision reference composed in the test.
#include <gtest/gtest.h>

#include <cmath>

#include "conv_reference.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {
// Which of the optional inputs the case passes (upstream tells them apart by the input count).
struct Layout {
  bool bias = false, bn = false, z = false;
};

// numpy 'reflect' padding of the two spatial axes of an (N, C, H, W) array.
RefArray reflect_pad(const RefArray& x, int64_t p) {
  const int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  auto mirror = [](int64_t i, int64_t len) { return i < 0 ? -i : (i >= len ? 2 * (len - 1) - i : i); };
  RefArray y{{n, c, h + 2 * p, w + 2 * p}, {}};
  for (int64_t a = 0; a < n * c; ++a)
    for (int64_t i = -p; i < h + p; ++i)
      for (int64_t j = -p; j < w + p; ++j)
        y.data.push_back(x.data[size_t((a * h + mirror(i, h)) * w + mirror(j, w))]);
  return y;
}

double activate(double v, const std::string& act, const std::vector<double>& args) {
  if (act == "relu") return v > 0 ? v : 0;
  if (act == "sigmoid") return 1 / (1 + std::exp(-v));
  if (act == "tanh") return std::tanh(v);
  if (act == "elu") return v > 0 ? v : args[0] * (std::exp(v) - 1);
  if (act == "leaky_relu") return v > 0 ? v : args[0] * v;
  if (act == "relu6") return std::min(std::max(v, 0.0), 6.0);
  if (act == "hard_sigmoid") return std::min(std::max(args[0] * v + args[1], 0.0), 1.0);
  if (act == "hard_swish") return v * std::min(std::max(v / 6 + 0.5, 0.0), 1.0);
  return v;
}

Reference fused_ref(Layout l) {
  return [l](const RefInputs& in, const nn::Attrs& a) {
    conv_ref::ConvSpec spec;
    RefArray x = in[0];
    const auto pad = a.get_ints("pad", {});
    if (a.get_string("pad_mode", "constant") == "reflect")
      x = reflect_pad(x, pad[0]);
    else
      spec.pad = pad;
    spec.stride = a.get_ints("stride", {});
    size_t next = 2;
    const RefArray* bias = l.bias ? &in[next++] : nullptr;
    RefArray h = conv_ref::convolution(x, in[1], bias, spec);
    const int64_t n = h.shape[0], c = h.shape[1], sp = h.shape[2] * h.shape[3];
    if (l.bn) {  // batch statistics over (N, H, W) per channel
      const auto &beta = in[next], &gamma = in[next + 1];
      next += 4;
      const double eps = a.get_float("eps", 1e-5);
      for (int64_t ch = 0; ch < c; ++ch) {
        double mean = 0, var = 0;
        for (int64_t b = 0; b < n; ++b)
          for (int64_t i = 0; i < sp; ++i) mean += h.data[size_t((b * c + ch) * sp + i)];
        mean /= double(n * sp);
        for (int64_t b = 0; b < n; ++b)
          for (int64_t i = 0; i < sp; ++i) var += std::pow(h.data[size_t((b * c + ch) * sp + i)] - mean, 2);
        var /= double(n * sp);
        for (int64_t b = 0; b < n; ++b)
          for (int64_t i = 0; i < sp; ++i) {
            double& v = h.data[size_t((b * c + ch) * sp + i)];
            v = gamma.data[size_t(ch)] * (v - mean) / std::sqrt(var + eps) + beta.data[size_t(ch)];
          }
      }
    }
    if (l.z)
      for (size_t i = 0; i < h.data.size(); ++i) h.data[i] += in[next].data[i];
    const auto args = a.get_floats("nonlinearity_args", {});
    for (auto& v : h.data) v = activate(v, a.get_string("nonlinearity", "relu"), args);
    return std::vector<RefArray>{h};
  };
}
}  // namespace

TEST(FusedConvolution, ConvBiasActivation) {
  std::mt19937 rng(21);
  auto x = random_input({2, 2, 4, 4}, rng), w = random_input({3, 2, 3, 3}, rng), b = random_input({3}, rng);
  run_op_test({"FusedConvolution",
               {{"nonlinearity", std::string("tanh")}, {"pad", std::vector<int64_t>{1, 1}}},
               {x, w, b},
               fused_ref({true, false, false})});
  run_op_test({"FusedConvolution",
               {{"nonlinearity", std::string("identity")}, {"stride", std::vector<int64_t>{2, 1}}},
               {x, w},
               fused_ref({false, false, false})});
}

TEST(FusedConvolution, ReluForward) {
  std::mt19937 rng(22);
  auto x = random_input({1, 2, 4, 4}, rng), w = random_input({2, 2, 3, 3}, rng);
  OpTestCase tc{"FusedConvolution", {}, {x, w}, fused_ref({})};
  tc.check_backward = false;  // relu's kink: the gradient path is covered by the smooth activations here
  run_op_test(tc);
}

TEST(FusedConvolution, BiasAndResidual) {
  std::mt19937 rng(23);
  auto x = random_input({2, 2, 4, 4}, rng), w = random_input({3, 2, 3, 3}, rng), b = random_input({3}, rng);
  auto z = random_input({2, 3, 2, 2}, rng);
  // elu with alpha 1 is smooth at 0, so central differences hold everywhere.
  run_op_test({"FusedConvolution",
               {{"nonlinearity", std::string("elu")}, {"nonlinearity_args", std::vector<double>{1.0}}},
               {x, w, b, z},
               fused_ref({true, false, true})});
  run_op_test({"FusedConvolution",
               {{"nonlinearity", std::string("identity")}},
               {x, w, z},
               fused_ref({false, false, true})});
}

// nncli's extensions, composed from scalar functions outside the oneDNN path (gradients on): hard_swish reads
// the pre-activation twice, so its gradient is the sum of both paths'. Inputs in [-0.5, 0.5] keep the
// pre-activations away from the kinks (+-3, +-5), where central differences do not hold.
TEST(FusedConvolution, HardSigmoidAndHardSwish) {
  std::mt19937 rng(26);
  auto x = random_input({2, 2, 4, 4}, rng, -0.5, 0.5), w = random_input({3, 2, 3, 3}, rng, -0.5, 0.5);
  auto b = random_input({3}, rng, -0.5, 0.5), z = random_input({2, 3, 2, 2}, rng, -0.5, 0.5);
  run_op_test(
      {"FusedConvolution",
       {{"nonlinearity", std::string("hard_sigmoid")}, {"nonlinearity_args", std::vector<double>{0.1, 0.5}}},
       {x, w, b},
       fused_ref({true, false, false})});
  run_op_test({"FusedConvolution",
               {{"nonlinearity", std::string("hard_swish")}},
               {x, w, b, z},
               fused_ref({true, false, true})});
  auto unused = [](const RefInputs&, const nn::Attrs&) { return std::vector<RefArray>{}; };  // setup throws first
  EXPECT_ANY_THROW(run_op_test(
      {"FusedConvolution", {{"nonlinearity", std::string("hard_sigmoid")}}, {x, w}, unused}));  // no arguments
}

TEST(FusedConvolution, BatchNormalizationAndResidual) {
  std::mt19937 rng(24);
  auto x = random_input({2, 2, 4, 4}, rng), w = random_input({3, 2, 3, 3}, rng);
  auto beta = random_input({1, 3, 1, 1}, rng), gamma = random_input({1, 3, 1, 1}, rng, 0.5, 1.5);
  RefArray mean{{1, 3, 1, 1}, {0, 0, 0}}, var{{1, 3, 1, 1}, {1, 1, 1}};
  OpTestCase bn{"FusedConvolution",
                {{"nonlinearity", std::string("sigmoid")}},
                {x, w, beta, gamma, mean, var},
                fused_ref({false, true, false})};
  bn.check_grad = {true, true, true, true, false, false};  // running statistics get no gradient
  run_op_test(bn);
  auto z = random_input({2, 3, 4, 4}, rng);
  OpTestCase bnz{"FusedConvolution",
                 {{"nonlinearity", std::string("tanh")},
                  {"pad", std::vector<int64_t>{1, 1}},
                  {"pad_mode", std::string("reflect")}},
                 {x, w, beta, gamma, mean, var, z},
                 fused_ref({false, true, true})};
  bnz.check_grad = {true, true, true, true, false, false, true};
  run_op_test(bnz);
}

TEST(FusedConvolution, RejectsBadInputCountAndActivation) {
  std::mt19937 rng(25);
  auto x = random_input({1, 2, 4, 4}, rng), w = random_input({2, 2, 3, 3}, rng), b = random_input({2}, rng);
  auto unused = [](const RefInputs&, const nn::Attrs&) { return std::vector<RefArray>{}; };  // setup throws first
  EXPECT_ANY_THROW(run_op_test({"FusedConvolution", {}, {x, w, b, b, b}, unused}));
  EXPECT_ANY_THROW(run_op_test({"FusedConvolution", {{"nonlinearity", std::string("gelu")}}, {x, w}, unused}));
  EXPECT_ANY_THROW(run_op_test({"FusedConvolution", {{"nonlinearity", std::string("elu")}}, {x, w}, unused}));
}
