// A network run once (nn::set_single_run): small convolutions keep to im2col + GEMM, larger ones still take
// oneDNN, and both give the same output as a convolution that is not run once.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "nn/core/single_run.hpp"
#include "ops/nn_layer/conv_core.hpp"

namespace {

// A 3x3 convolution, stride 1, no padding, of `channels` maps of `side` x `side` into `out_channels` maps.
nn::ops::ConvGeometry geometry(int64_t channels, int64_t side) {
  nn::ops::ConvGeometry g;
  g.channels = channels;
  g.in = {side, side};
  g.kernel = {3, 3};
  g.pad = {0, 0};
  g.stride = {1, 1};
  g.dilation = {1, 1};
  g.out = {side - 2, side - 2};
  return g;
}

std::vector<float> ramp(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * float(int(i % 17) - 8);
  return v;
}

struct SingleRunScope {
  SingleRunScope() { nn::set_single_run(true); }
  ~SingleRunScope() { nn::set_single_run(false); }
};

std::vector<float> run(const nn::ops::ConvGeometry& g, int64_t oc, bool* on_dnnl) {
  nn::ops::ConvEngine engine;
  engine.setup(g, oc, 1, 1);
  const std::vector<float> x = ramp(size_t(g.channels * g.in[0] * g.in[1]), 0.25f);
  const std::vector<float> w = ramp(size_t(oc * g.channels * 9), 0.125f);
  std::vector<float> y(size_t(oc * g.out[0] * g.out[1]));
  engine.forward(x.data(), w.data(), y.data(), false);
  *on_dnnl = engine.uses_dnnl();
  return y;
}

TEST(SingleRun, SmallConvolutionsKeepToThePlainPath) {
  const nn::ops::ConvGeometry small = geometry(4, 12);  // 2 * 8 * 36 * 100 = 57,600 FLOPs
  ASSERT_LT(small.flops(8, 1, 1), nn::ops::ConvEngine::kSingleRunPlainFlops);
  bool repeated_on_dnnl = false, once_on_dnnl = true;
  const std::vector<float> repeated = run(small, 8, &repeated_on_dnnl);
  std::vector<float> once;
  {
    SingleRunScope scope;
    once = run(small, 8, &once_on_dnnl);
  }
  EXPECT_FALSE(once_on_dnnl) << "run many times, the layer is on oneDNN: " << repeated_on_dnnl;
  ASSERT_EQ(once.size(), repeated.size());
  for (size_t i = 0; i < once.size(); ++i)
    EXPECT_NEAR(once[i], repeated[i], 1e-4f * (1.f + std::fabs(repeated[i])));
}

// Where oneDNN is built in, a layer that is not small takes it whether or not the network runs once.
TEST(SingleRun, LargerConvolutionsChooseAsBefore) {
  const nn::ops::ConvGeometry large = geometry(32, 40);  // 2 * 64 * 288 * 1444 = 53 MFLOP
  ASSERT_GT(large.flops(64, 1, 1), nn::ops::ConvEngine::kSingleRunPlainFlops);
  bool repeated_on_dnnl = false, once_on_dnnl = false;
  run(large, 64, &repeated_on_dnnl);
  SingleRunScope scope;
  run(large, 64, &once_on_dnnl);
  EXPECT_EQ(once_on_dnnl, repeated_on_dnnl);
}

}  // namespace
