// Small networks on the calling thread (runtime/session/calling_thread.*): the flops counted per pass and the
// thread scope.
#include <gtest/gtest.h>
#include <omp.h>

#include "calling_thread.hpp"
#include "nn/core/adaptive_wait.hpp"
#include "nn/ir/graph_builder.hpp"

namespace {
using namespace nn;

ir::Variable variable(const std::string& name, const Shape& shape, const std::string& type) {
  ir::Variable v;
  v.name = name;
  v.type = type;
  v.shape = shape;
  return v;
}

TEST(CallingThread, FlopsOfConvolutionAndAffine) {
  // x (1, 3, 8, 8) -> 3x3 convolution, 4 channels, padding 1 -> (1, 4, 8, 8) -> Affine to 5.
  ir::Network net;
  net.name = "n";
  net.variables = {variable("x", {1, 3, 8, 8}, "Buffer"), variable("w", {4, 3, 3, 3}, "Parameter"),
                   variable("c", {1, 4, 8, 8}, "Buffer"), variable("a", {256, 5}, "Parameter"),
                   variable("y", {1, 5}, "Buffer")};
  ir::Function conv;
  conv.name = "conv";
  conv.type = "Convolution";
  conv.inputs = {"x", "w"};
  conv.outputs = {"c"};
  conv.attrs.set("pad", std::vector<int64_t>{1, 1});
  ir::Function affine;
  affine.name = "affine";
  affine.type = "Affine";
  affine.inputs = {"c", "a"};
  affine.outputs = {"y"};
  net.functions = {conv, affine};
  ir::ParameterStore params;
  ir::BuildOptions options;
  options.batch_size = 1;
  const ir::BuiltNetwork built = ir::build_network(net, params, options);
  EXPECT_DOUBLE_EQ(nncli::network_flops(net, built), 2.0 * (4 * 64 * 27) + 2.0 * (5 * 256));
}

TEST(CallingThread, ScopeRunsRegionsOnOneThreadAndRestores) {
  const int before = omp_get_max_threads();
  {
    nncli::CallingThreadScope alone(true);
    EXPECT_EQ(omp_get_max_threads(), 1);
    int team = 0;
#pragma omp parallel
    {
#pragma omp single
      team = omp_get_num_threads();
    }
    EXPECT_EQ(team, 1);
  }
  EXPECT_EQ(omp_get_max_threads(), before);
  {
    nncli::CallingThreadScope not_small(false);
    EXPECT_EQ(omp_get_max_threads(), before);
  }
}

TEST(CallingThread, SmallAlwaysMidSizedWhenBusyLargeNever) {
  EXPECT_TRUE(nncli::run_on_calling_thread(0.6e6));                   // LeNet
  EXPECT_EQ(nncli::run_on_calling_thread(34e6), nn::machine_busy());  // NHWC SqueezeNet 32x32
  EXPECT_EQ(nncli::run_on_calling_thread(82e6), nn::machine_busy());  // ResNet-20
  EXPECT_FALSE(nncli::run_on_calling_thread(1.8e9));                  // ResNet-18
}

}  // namespace
