// The inference passes on a real nnabla ResNet-18 graph (converter_cases N0004): BatchNormalization folded,
// then Convolution + Add2 + ReLU fused into FusedConvolution; the optimized network gives the original's
// outputs (1e-5 relative) run as executors run it, where the CPU runs the fused oneDNN path.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "formats/nnp/nnp_reader.hpp"
#include "formats/passes/inference_passes.hpp"
#include "initialized_model.hpp"
#include "run_executor.hpp"

namespace {
using namespace nn;

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

  const std::vector<float> want = test::run_first_executor(model, input, false);
  ir::Model optimized = model;
  size_t folded = 0, fused = 0;
  for (const auto& line : formats::optimize_for_inference(optimized)) {
    folded += line.rfind("fold_batch_normalization:", 0) == 0;
    fused += line.rfind("fuse_convolution_epilogues:", 0) == 0;
  }
  EXPECT_GE(folded, 17u);
  EXPECT_GE(fused, 17u);  // every convolution of the residual blocks takes its ReLU or Add2 + ReLU
  EXPECT_LE(test::relative_error(test::run_first_executor(optimized, input, true), want), 1e-5);
}

}  // namespace
