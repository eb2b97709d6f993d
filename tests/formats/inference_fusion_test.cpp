// The inference passes on a real nnabla ResNet-18 graph (converter_cases N0004): BatchNormalization folded,
// then Convolution + Add2 + ReLU fused into FusedConvolution; the optimized network gives the original's
// outputs (1e-5 relative) with gradients off, where the CPU runs the fused oneDNN path.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "formats/nnp/nnp_reader.hpp"
#include "formats/passes/inference_passes.hpp"
#include "initialized_model.hpp"
#include "nn/graph/grad_mode.hpp"
#include "nn/ir/graph_builder.hpp"

namespace {
using namespace nn;

// The executor's output for `input`; with gradients off (as executors run) or on (the plain kernels).
std::vector<float> run(const ir::Model& model, const std::vector<float>& input, bool no_grad) {
  const ir::Executor& exec = model.executors.at(0);
  ir::ParameterStore params;
  params.load(model.parameters);
  ir::BuildOptions options;
  options.batch_size = 1;
  ir::BuiltNetwork built = ir::build_network(*model.find_network(exec.network_name), params, options);
  VariablePtr x = built.get(exec.data_variable.at(0).variable_name);
  EXPECT_EQ(x->size(), int64_t(input.size()));
  std::copy(input.begin(), input.end(), x->data()->cast<float>(true));
  VariablePtr y = built.get(exec.output_variable.at(0).variable_name);
  if (no_grad) {
    NoGradScope scope;
    forward_all({y});
  } else {
    forward_all({y});
  }
  return y->data()->to_vector();
}

TEST(InferenceFusion, ResNet18FusedMatchesOriginal) {
  // Parameters from the initializers, then batch statistics that make the folding matter.
  ir::Model model = test::load_with_initialized_parameters(
      std::string(NN_TESTDATA_DIR) + "/nnabla/converter_cases/N0004_resnet18_mulscalar_addscalar.nntxt");
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> stat(0.5f, 1.5f);
  for (auto& p : model.parameters)
    if (p.name.find("/mean") != std::string::npos || p.name.find("/var") != std::string::npos ||
        p.name.find("/gamma") != std::string::npos)
      for (auto& v : p.data) v = stat(rng);
  const ir::Variable* in = model.find_network(model.executors.at(0).network_name)
                               ->find_variable(model.executors.at(0).data_variable.at(0).variable_name);
  ASSERT_NE(in, nullptr);
  int64_t n = 1;
  for (int64_t d : in->shape) n *= d < 0 ? 1 : d;
  std::vector<float> input(static_cast<size_t>(n));
  std::uniform_real_distribution<float> pixel(0.f, 1.f);
  for (auto& v : input) v = pixel(rng);

  const std::vector<float> want = run(model, input, false);
  ir::Model optimized = model;
  size_t folded = 0, fused = 0;
  for (const auto& line : formats::optimize_for_inference(optimized)) {
    folded += line.rfind("fold_batch_normalization:", 0) == 0;
    fused += line.rfind("fuse_convolution_epilogues:", 0) == 0;
  }
  EXPECT_GE(folded, 17u);
  EXPECT_GE(fused, 17u);  // every convolution of the residual blocks takes its ReLU or Add2 + ReLU
  const std::vector<float> got = run(optimized, input, true);
  ASSERT_EQ(got.size(), want.size());
  double scale = 1e-12, worst = 0;
  for (size_t i = 0; i < want.size(); ++i) scale = std::max(scale, double(std::abs(want[i])));
  for (size_t i = 0; i < want.size(); ++i) worst = std::max(worst, double(std::abs(got[i] - want[i])));
  EXPECT_LE(worst / scale, 1e-5);
}

}  // namespace
