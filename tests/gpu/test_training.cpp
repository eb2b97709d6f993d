// Whole training steps on the GPU: a small conv net (Convolution, BatchNormalization, ReLU, MaxPooling,
// Affine, SoftmaxCrossEntropy, Mean) trained with Adam for a few steps in cudnn:float must end with the CPU's
// parameters; in cudnn:half with dynamic loss scaling it must stay close and keep its float master weights.
#include "gpu_compare.hpp"
#include "nn/graph/functions.hpp"
#include "nn/train/loss_scaler.hpp"

namespace nn::gpu_test {
namespace {

using Ints = std::vector<int64_t>;

struct Net {
  VariablePtr x, label, loss;
  Solver::ParameterList params;
};

VariablePtr parameter(Net& n, const std::string& name, const Shape& shape, std::mt19937& rng, float scale) {
  auto v = Variable::create(shape, true);
  fill(v->data(), random_values(v->size(), rng, -scale, scale));
  n.params.emplace_back(name, v);
  return v;
}

Net build(const Context& ctx) {
  std::mt19937 rng(21);
  Net n;
  n.x = Variable::create({8, 3, 12, 12}, false);
  fill(n.x->data(), random_values(n.x->size(), rng, 0.f, 1.f));
  n.label = Variable::create({8, 1}, false);
  fill(n.label->data(), {0, 1, 2, 3, 4, 0, 1, 2});
  auto w = parameter(n, "conv/W", {6, 3, 3, 3}, rng, 0.3f);
  // No convolution bias: BatchNormalization right after cancels it, so its grad is pure rounding noise that
  // Adam's normalised step turns into moves of ~alpha, different on every backend.
  auto h = call1("Convolution", {n.x, w}, {{"pad", Ints{1, 1}}}, ctx);
  auto beta = parameter(n, "bn/beta", {1, 6, 1, 1}, rng, 0.1f);
  auto gamma = parameter(n, "bn/gamma", {1, 6, 1, 1}, rng, 0.1f);
  gamma->data()->fill(1.0);
  auto mean = Variable::create({1, 6, 1, 1}, false);
  auto var = Variable::create({1, 6, 1, 1}, false);
  mean->data()->zero();
  var->data()->fill(1.0);
  h = call1("BatchNormalization", {h, beta, gamma, mean, var}, {{"batch_stat", true}}, ctx);
  h = call1("MaxPooling", {call1("ReLU", {h}, {}, ctx)}, {{"kernel", Ints{2, 2}}}, ctx);
  auto fw = parameter(n, "fc/W", {6 * 6 * 6, 5}, rng, 0.1f);
  auto fb = parameter(n, "fc/b", {5}, rng, 0.1f);
  auto logits = call1("Affine", {h, fw, fb}, {}, ctx);
  n.loss = call1("Mean", {call1("SoftmaxCrossEntropy", {logits, n.label}, {}, ctx)}, {}, ctx);
  return n;
}

// Parameters after `steps` Adam updates; with a scaler, backward runs from loss * scale.
std::vector<std::vector<float>> train(const Context& ctx, int steps, train::DynamicLossScaler* scaler = nullptr) {
  Net n = build(ctx);
  auto solver = create_solver("Adam", {{"alpha", 0.01}});
  solver->set_parameters(n.params);
  for (int s = 0; s < steps; ++s) {
    n.loss->forward(false, true);
    solver->zero_grad();
    n.loss->grad()->fill(scaler ? scaler->scale() : 1.0);
    n.loss->backward(RootGrad::kKeep, true);
    if (!scaler || scaler->unscale_or_skip(*solver)) solver->update();
  }
  std::vector<std::vector<float>> out;
  for (auto& [name, v] : n.params) {
    if (!ctx.is_cpu_only()) EXPECT_EQ(v->data()->dtype(), DType::kFloat32) << name << ": master weights in float";
    out.push_back(v->data()->to_vector());
  }
  return out;
}

void expect_params_near(const std::vector<std::vector<float>>& got, const std::vector<std::vector<float>>& want,
                        double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t p = 0; p < want.size(); ++p)
    for (size_t i = 0; i < want[p].size(); ++i)
      ASSERT_NEAR(got[p][i], want[p][i], tol * (1.0 + std::fabs(want[p][i])))
          << "parameter " << p << "[" << i << "]";
}

TEST(GpuTraining, FloatStepsMatchCpu) {
  NN_SKIP_WITHOUT_GPU();
  const auto cpu = train(cpu_context(), 4);
  const auto gpu = train(parse_context("cudnn"), 4);
  expect_params_near(gpu, cpu, 2e-4);
}

TEST(GpuTraining, HalfStepsWithLossScalingStayNearCpu) {
  NN_SKIP_WITHOUT_GPU();
  const auto cpu = train(cpu_context(), 4);
  train::DynamicLossScaler scaler({true, 1024.0, 2.0, 2000});
  const auto half = train(parse_context("cudnn:half"), 4, &scaler);
  EXPECT_EQ(scaler.skipped_updates(), 0);
  expect_params_near(half, cpu, 3e-2);
}

TEST(GpuTraining, HalfOverflowIsSkippedAndTheScaleComesDown) {
  NN_SKIP_WITHOUT_GPU();
  train::DynamicLossScaler scaler({true, 1e9, 1e3, 2000});  // far beyond fp16's 65504: the grads overflow
  train(parse_context("cudnn:half"), 4, &scaler);
  EXPECT_GE(scaler.skipped_updates(), 1);
  EXPECT_LT(scaler.scale(), 1e9);
}

}  // namespace
}  // namespace nn::gpu_test
