// The fp16 CUDA kernels against cpu:float, and float cases past one CUDA block (the per-op tester in tests/ops
// compares every float kernel on its own cases).
#include "gpu_compare.hpp"

namespace nn::gpu_test {
namespace {

using Ints = std::vector<int64_t>;

TEST(GpuOps, UnaryActivationsAndScalarOpsHalf) {
  NN_SKIP_WITHOUT_GPU();
  for (const char* op : {"ReLU", "Sigmoid", "Tanh", "Swish", "GELU", "Identity"}) {
    SCOPED_TRACE(op);
    compare_with_cpu(as_half({op, {}, {{3, 4, 5}}}));
    compare_with_cpu(as_half({op, {}, {{2, 3000}}}));
  }
  compare_with_cpu(as_half({"LeakyReLU", {{"alpha", 0.2}}, {{3, 4, 5}}}));
  compare_with_cpu(as_half({"ELU", {{"alpha", 1.5}}, {{3, 4, 5}}}));
  compare_with_cpu(as_half({"AddScalar", {{"val", 1.5}}, {{3, 4, 5}}}));
  compare_with_cpu(as_half({"MulScalar", {{"val", -2.0}}, {{3, 4, 5}}}));
  compare_with_cpu(as_half({"RSubScalar", {{"val", 0.5}}, {{3, 4, 5}}}));
  GpuCase pow{"PowScalar", {{"val", 2.5}}, {{3, 4, 5}}};
  pow.lo = 0.5f, pow.hi = 2.f;
  compare_with_cpu(as_half(pow, 2e-2));
  GpuCase rdiv{"RDivScalar", {{"val", 2.0}}, {{3, 4, 5}}};
  rdiv.lo = 0.5f, rdiv.hi = 2.f;
  compare_with_cpu(as_half(rdiv, 2e-2));
}

TEST(GpuOps, BinaryArithmeticWithBroadcastingHalf) {
  const std::vector<std::vector<Shape>> shape_sets = {{{3, 4, 5}, {3, 4, 5}}, {{3, 4, 5}, {1, 4, 1}},
                                                      {{4, 5}, {3, 4, 5}},    {{3, 1, 5}, {1, 4, 1}},
                                                      {{2, 300}, {1}},        {{1}, {2, 300}}};
  NN_SKIP_WITHOUT_GPU();
  for (const char* op : {"Add2", "Sub2", "Mul2", "Div2", "SquaredError"}) {
    for (const auto& shapes : shape_sets) {
      SCOPED_TRACE(std::string(op) + " " + to_string(shapes[0]) + " " + to_string(shapes[1]));
      GpuCase c{op, {}, shapes};
      c.lo = 0.5f, c.hi = 2.f;  // keeps Div2 away from zero
      // Grads of a broadcast input sum up to 600 fp16 products (accumulated in float).
      compare_with_cpu(as_half(c, 2e-2));
    }
  }
}

TEST(GpuOps, BinaryAffineLayers) {
  NN_SKIP_WITHOUT_GPU();
  // binary_weight and alpha are written by forward and receive no gradient; weight gets the applied one's.
  auto half = [](GpuCase c) { return as_half(c, 2e-2); };
  compare_with_cpu(
      half({"BinaryConnectAffine", {}, {{4, 6}, {6, 3}, {6, 3}, {3}}, {}, {true, true, false, true}}));
  compare_with_cpu(half({"BinaryConnectAffine",
                         {{"base_axis", int64_t(2)}},
                         {{2, 3, 5}, {5, 2, 2}, {5, 2, 2}},
                         {},
                         {true, true, false}}));
  compare_with_cpu(
      half({"BinaryWeightAffine", {}, {{4, 6}, {6, 3}, {6, 3}, {3}, {3}}, {}, {true, true, false, false, true}}));
  // A zero weight binarizes to quantize_zero_to, in float too.
  const GpuCase zeros{"BinaryWeightAffine",
                      {{"quantize_zero_to", 0.0}},
                      {{3, 2, 4}, {8, 5}, {8, 5}, {5}},
                      {{}, std::vector<float>(40, 0.f)},
                      {true, true, false, false}};
  compare_with_cpu(zeros);
  compare_with_cpu(half(zeros));
}

TEST(GpuOps, AffineAndBatchMatmulInHalf) {
  NN_SKIP_WITHOUT_GPU();
  auto half = [](GpuCase c) { return as_half(c, 2e-2); };
  compare_with_cpu(half({"Affine", {{"base_axis", int64_t(1)}}, {{4, 3, 5}, {15, 6}, {6}}}));
  compare_with_cpu(half({"Affine", {{"base_axis", int64_t(2)}}, {{2, 3, 5}, {5, 2, 3}}}));
  for (bool ta : {false, true}) {
    SCOPED_TRACE("transpose_a " + std::to_string(ta));
    Shape a = ta ? Shape{2, 4, 3} : Shape{2, 3, 4};
    compare_with_cpu(half({"BatchMatmul", {{"transpose_a", ta}, {"transpose_b", true}}, {a, {2, 5, 4}}}));
  }
}

TEST(GpuOps, Reductions) {
  NN_SKIP_WITHOUT_GPU();
  for (const char* op : {"Sum", "Mean"}) {
    SCOPED_TRACE(op);
    compare_with_cpu({op, {{"axes", Ints{1}}}, {{2, 3000}}});  // more reduced elements than threads
  }
}

}  // namespace
}  // namespace nn::gpu_test
