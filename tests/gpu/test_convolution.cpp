// cuDNN convolutions (Convolution, Deconvolution, their depthwise and binary variants) against cpu:float:
// outputs and input grads, with and without accum, in half (and in float past one block), the binary weights
// forward writes, and the configurations the cuDNN kernels refuse.
#include "gpu_compare.hpp"

namespace nn::gpu_test {
namespace {

using Ints = std::vector<int64_t>;

// Float: cuDNN sums in another order than the CPU GEMMs (and may use Winograd or FFT). Half (compare_both's
// 2e-2): fp16 storage of inputs, outputs and grads; small channel counts keep the sums accurate.
GpuCase conv_case(const std::string& op, Attrs attrs, std::vector<Shape> shapes, std::vector<bool> grad = {}) {
  GpuCase c{op, std::move(attrs), std::move(shapes)};
  c.grad = std::move(grad);
  c.rtol = 1e-3, c.atol = 2e-4;
  return c;
}

TEST(GpuConvolution, Convolution2D) {
  NN_SKIP_WITHOUT_GPU();
  compare_both(conv_case("Convolution", {{"pad", Ints{1, 1}}}, {{2, 3, 6, 5}, {4, 3, 3, 3}, {4}}), 2e-2);
  compare_both(
      conv_case("Convolution", {{"pad", Ints{1, 2}}, {"stride", Ints{2, 1}}}, {{2, 3, 7, 6}, {2, 3, 3, 2}}), 2e-2);
  compare_both(
      conv_case("Convolution", {{"dilation", Ints{2, 2}}, {"pad", Ints{2, 1}}}, {{2, 2, 7, 7}, {3, 2, 3, 3}, {3}}),
      2e-2);
  compare_both(conv_case("Convolution", {}, {{3, 4, 5, 5}, {5, 4, 1, 1}, {5}}), 2e-2);  // 1x1 kernel
}

TEST(GpuConvolution, GroupedConvolution) {
  NN_SKIP_WITHOUT_GPU();
  compare_both(
      conv_case("Convolution", {{"group", int64_t(3)}, {"pad", Ints{1, 1}}}, {{2, 6, 5, 5}, {6, 2, 3, 3}, {6}}),
      2e-2);
  compare_both(conv_case("Convolution", {{"group", int64_t(2)}, {"stride", Ints{2, 2}}, {"dilation", Ints{1, 2}}},
                         {{2, 4, 7, 8}, {6, 2, 3, 2}}),
               2e-2);
}

TEST(GpuConvolution, Convolution1DAnd3D) {
  NN_SKIP_WITHOUT_GPU();
  compare_both(conv_case("Convolution", {{"pad", Ints{1}}, {"stride", Ints{2}}}, {{2, 3, 9}, {4, 3, 3}, {4}}),
               2e-2);
  compare_both(conv_case("Convolution", {{"dilation", Ints{3}}, {"group", int64_t(2)}}, {{3, 4, 11}, {2, 2, 2}}),
               2e-2);
  compare_both(conv_case("Convolution", {{"pad", Ints{1, 0, 1}}}, {{2, 2, 5, 4, 4}, {3, 2, 3, 2, 3}, {3}}), 2e-2);
  compare_both(conv_case("Convolution", {{"stride", Ints{2, 1, 2}}, {"dilation", Ints{1, 2, 1}}},
                         {{1, 2, 6, 6, 5}, {2, 2, 2, 2, 2}}),
               2e-2);
}

TEST(GpuConvolution, ConvolutionBaseAxis) {
  NN_SKIP_WITHOUT_GPU();
  compare_both(conv_case("Convolution", {{"base_axis", int64_t(2)}, {"pad", Ints{1, 1}}},
                         {{2, 3, 4, 5, 5}, {2, 4, 3, 3}, {2}}),
               2e-2);
  compare_both(conv_case("Convolution", {{"base_axis", int64_t(0)}}, {{3, 5, 6}, {2, 3, 2, 3}, {2}}), 2e-2);
}

TEST(GpuConvolution, DepthwiseConvolution) {
  NN_SKIP_WITHOUT_GPU();
  compare_both(
      conv_case("DepthwiseConvolution", {{"multiplier", int64_t(2)}, {"pad", Ints{1, 1}}, {"stride", Ints{2, 2}}},
                {{2, 3, 6, 6}, {6, 3, 3}, {6}}),
      2e-2);
  compare_both(conv_case("DepthwiseConvolution", {{"dilation", Ints{2}}}, {{2, 4, 8}, {4, 3}}), 2e-2);
  compare_both(conv_case("DepthwiseConvolution", {{"base_axis", int64_t(2)}, {"pad", Ints{1, 1}}},
                         {{2, 2, 3, 5, 5}, {3, 3, 3}, {3}}),
               2e-2);
}

TEST(GpuConvolution, Deconvolution) {
  NN_SKIP_WITHOUT_GPU();
  compare_both(conv_case("Deconvolution", {{"pad", Ints{1, 1}}}, {{2, 3, 4, 4}, {3, 2, 3, 3}, {2}}), 2e-2);
  compare_both(
      conv_case("Deconvolution", {{"stride", Ints{2, 2}}, {"pad", Ints{1, 1}}, {"output_padding", Ints{1, 1}}},
                {{2, 3, 4, 5}, {3, 2, 3, 3}, {2}}),
      2e-2);
  compare_both(
      conv_case("Deconvolution", {{"group", int64_t(2)}, {"dilation", Ints{2, 1}}, {"stride", Ints{1, 2}}},
                {{2, 4, 4, 4}, {4, 3, 3, 2}, {6}}),
      2e-2);
  compare_both(conv_case("Deconvolution", {{"stride", Ints{3}}}, {{2, 3, 5}, {3, 2, 4}}), 2e-2);
  compare_both(conv_case("Deconvolution", {{"stride", Ints{2, 1, 2}}, {"pad", Ints{0, 1, 0}}},
                         {{1, 2, 3, 3, 2}, {2, 2, 2, 3, 2}, {2}}),
               2e-2);
  compare_both(conv_case("Deconvolution", {{"base_axis", int64_t(2)}, {"stride", Ints{2, 2}}},
                         {{2, 2, 3, 3, 3}, {3, 2, 2, 2}, {2}}),
               2e-2);
}

TEST(GpuConvolution, DepthwiseDeconvolution) {
  NN_SKIP_WITHOUT_GPU();
  compare_both(
      conv_case("DepthwiseDeconvolution", {{"divisor", int64_t(2)}, {"stride", Ints{2, 2}}, {"pad", Ints{1, 1}}},
                {{2, 4, 5, 5}, {4, 3, 3}, {2}}),
      2e-2);
  compare_both(conv_case("DepthwiseDeconvolution", {{"dilation", Ints{2}}}, {{2, 3, 6}, {3, 3}}), 2e-2);
  compare_both(conv_case("DepthwiseDeconvolution", {{"divisor", int64_t(3)}, {"base_axis", int64_t(2)}},
                         {{2, 2, 3, 4, 4}, {3, 2, 2}, {1}}),
               2e-2);
}

TEST(GpuConvolution, BinaryConvolutions) {
  NN_SKIP_WITHOUT_GPU();
  // binary_weight and alpha are written by forward and receive no gradient.
  compare_both(conv_case("BinaryConnectConvolution", {{"pad", Ints{1, 1}}},
                         {{2, 3, 5, 5}, {4, 3, 3, 3}, {4, 3, 3, 3}, {4}}, {true, true, false, true}),
               2e-2);
  compare_both(conv_case("BinaryConnectConvolution", {{"group", int64_t(2)}, {"stride", Ints{2}}},
                         {{2, 4, 9}, {4, 2, 3}, {4, 2, 3}}, {true, true, false}),
               2e-2);
  compare_both(conv_case("BinaryWeightConvolution", {{"pad", Ints{1, 1}}},
                         {{2, 3, 5, 5}, {4, 3, 3, 3}, {4, 3, 3, 3}, {4}, {4}}, {true, true, false, false, true}),
               2e-2);
  compare_both(conv_case("BinaryWeightConvolution", {{"dilation", Ints{2, 1}}},
                         {{2, 2, 6, 5}, {3, 2, 2, 2}, {3, 2, 2, 2}, {3}}, {true, true, false, false}),
               2e-2);
}

TEST(GpuConvolution, BinaryWeightsAreWrittenByForward) {
  NN_SKIP_WITHOUT_GPU();
  auto f = OpRegistry::instance().create("BinaryWeightConvolution", {}, parse_context("cudnn"));
  auto x = Variable::create({1, 1, 3, 3}, true);
  auto w = Variable::create({2, 1, 2, 2}, true);
  auto bw = Variable::create({2, 1, 2, 2}, true);
  auto alpha = Variable::create({2}, true);
  auto y = Variable::create({}, true);
  fill(x->data(), std::vector<float>(9, 1.f));
  fill(w->data(), {0.5f, -1.f, 0.f, 2.5f, -0.25f, -0.25f, 0.75f, 0.25f});
  f->setup({x.get(), w.get(), bw.get(), alpha.get()}, {y.get()});
  f->forward({x.get(), w.get(), bw.get(), alpha.get()}, {y.get()});
  const std::vector<float> expected_bw{1.f, -1.f, 1.f, 1.f, -1.f, -1.f, 1.f, 1.f};
  EXPECT_EQ(bw->data()->to_vector(), expected_bw);
  const std::vector<float> a = alpha->data()->to_vector();
  ASSERT_EQ(a.size(), 2u);
  EXPECT_FLOAT_EQ(a[0], 1.f);
  EXPECT_FLOAT_EQ(a[1], 0.375f);
  // All-ones input: every output is alpha * (sum of signs).
  const std::vector<float> out = y->data()->to_vector();
  ASSERT_EQ(out.size(), 8u);
  // (cuDNN may pick an FFT/Winograd algorithm: not exact to the last bit, nor 0 to a few ulps.)
  EXPECT_NEAR(out[0], 2.f, 1e-5f);
  EXPECT_NEAR(out[4], 0.f, 1e-5f);
}

TEST(GpuConvolution, RefusedConfigurationsThrow) {
  NN_SKIP_WITHOUT_GPU();
  auto setup = [](const std::string& op, const Attrs& attrs, const Shape& xs, const Shape& ws) {
    auto f = OpRegistry::instance().create(op, attrs, parse_context("cudnn"));
    auto x = Variable::create(xs, true);
    auto w = Variable::create(ws, true);
    auto y = Variable::create({}, true);
    f->setup({x.get(), w.get()}, {y.get()});
  };
  EXPECT_THROW(setup("Convolution", {{"channel_last", true}}, {1, 5, 5, 3}, {2, 3, 3, 3}), Error);
  // output_padding reaching the stride has no cuDNN equivalent.
  EXPECT_THROW(setup("Deconvolution", {{"dilation", Ints{2, 2}}, {"output_padding", Ints{1, 1}}}, {1, 1, 3, 3},
                     {1, 1, 3, 3}),
               Error);
}

}  // namespace
}  // namespace nn::gpu_test
