// Every CUDA kernel against cpu:float: forward outputs and input grads, with and without accum.
#include "gpu_compare.hpp"

namespace nn::gpu_test {
namespace {

using Ints = std::vector<int64_t>;

// The fp16 kernel of a case (the CPU reference stays float).
GpuCase as_half(GpuCase c, double tol = 1e-2) {
  c.context = "cudnn:half";
  c.rtol = c.atol = tol;
  return c;
}

TEST(GpuOps, UnaryActivationsAndScalarOps) {
  NN_SKIP_WITHOUT_GPU();
  for (const char* op : {"ReLU", "Sigmoid", "Tanh", "Swish", "GELU", "Identity"}) {
    SCOPED_TRACE(op);
    compare_with_cpu({op, {}, {{3, 4, 5}}});
  }
  compare_with_cpu({"LeakyReLU", {{"alpha", 0.2}}, {{3, 4, 5}}});
  compare_with_cpu({"ELU", {{"alpha", 1.5}}, {{3, 4, 5}}});
  compare_with_cpu({"AddScalar", {{"val", 1.5}}, {{3, 4, 5}}});
  compare_with_cpu({"MulScalar", {{"val", -2.0}}, {{3, 4, 5}}});
  compare_with_cpu({"RSubScalar", {{"val", 0.5}}, {{3, 4, 5}}});
  GpuCase pow{"PowScalar", {{"val", 2.5}}, {{3, 4, 5}}};
  pow.lo = 0.5f, pow.hi = 2.f;
  compare_with_cpu(pow);
  GpuCase rdiv{"RDivScalar", {{"val", 2.0}}, {{3, 4, 5}}};
  rdiv.lo = 0.5f, rdiv.hi = 2.f;
  compare_with_cpu(rdiv);
}

TEST(GpuOps, BinaryArithmeticWithBroadcasting) {
  const std::vector<std::vector<Shape>> shape_sets = {
      {{3, 4, 5}, {3, 4, 5}}, {{3, 4, 5}, {1, 4, 1}}, {{4, 5}, {3, 4, 5}}, {{3, 1, 5}, {1, 4, 1}}};
  NN_SKIP_WITHOUT_GPU();
  for (const char* op : {"Add2", "Sub2", "Mul2", "Div2", "SquaredError"}) {
    for (const auto& shapes : shape_sets) {
      SCOPED_TRACE(std::string(op) + " " + to_string(shapes[0]) + " " + to_string(shapes[1]));
      GpuCase c{op, {}, shapes};
      c.lo = 0.5f, c.hi = 2.f;  // keeps Div2 away from zero
      compare_with_cpu(c);
    }
  }
}

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

TEST(GpuOps, AffineAndBatchMatmul) {
  NN_SKIP_WITHOUT_GPU();
  compare_with_cpu({"Affine", {{"base_axis", int64_t(1)}}, {{4, 3, 5}, {15, 6}, {6}}});
  compare_with_cpu({"Affine", {{"base_axis", int64_t(2)}}, {{2, 3, 5}, {5, 2, 3}}});
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      SCOPED_TRACE("transpose_a " + std::to_string(ta) + " transpose_b " + std::to_string(tb));
      Shape a = ta ? Shape{2, 4, 3} : Shape{2, 3, 4};
      Shape b = tb ? Shape{2, 5, 4} : Shape{2, 4, 5};
      compare_with_cpu({"BatchMatmul", {{"transpose_a", ta}, {"transpose_b", tb}}, {a, b}});
    }
  }
  compare_with_cpu({"BatchMatmul", {}, {{3, 4}, {4, 2}}});
}

TEST(GpuOps, BinaryAffineLayers) {
  NN_SKIP_WITHOUT_GPU();
  // binary_weight and alpha are written by forward and receive no gradient; weight gets the applied one's.
  for (const char* context : {"cudnn", "cudnn:half"}) {
    SCOPED_TRACE(context);
    const bool half = std::string(context) == "cudnn:half";
    auto with = [&](GpuCase c) {
      c.context = context;
      if (half) c.rtol = c.atol = 2e-2;
      return c;
    };
    compare_with_cpu(with({"BinaryConnectAffine", {}, {{4, 6}, {6, 3}, {6, 3}, {3}}, {}, {true, true, false, true}}));
    compare_with_cpu(with({"BinaryConnectAffine", {{"base_axis", int64_t(2)}}, {{2, 3, 5}, {5, 2, 2}, {5, 2, 2}},
                           {}, {true, true, false}}));
    compare_with_cpu(
        with({"BinaryWeightAffine", {}, {{4, 6}, {6, 3}, {6, 3}, {3}, {3}}, {}, {true, true, false, false, true}}));
    compare_with_cpu(with({"BinaryWeightAffine", {{"quantize_zero_to", 0.0}}, {{3, 2, 4}, {8, 5}, {8, 5}, {5}},
                           {{}, std::vector<float>(40, 0.f)}, {true, true, false, false}}));
  }
}

TEST(GpuOps, AffineAndBatchMatmulInHalf) {
  NN_SKIP_WITHOUT_GPU();
  auto half = [](GpuCase c) {
    c.context = "cudnn:half";
    c.rtol = c.atol = 2e-2;
    return c;
  };
  compare_with_cpu(half({"Affine", {{"base_axis", int64_t(1)}}, {{4, 3, 5}, {15, 6}, {6}}}));
  compare_with_cpu(half({"Affine", {{"base_axis", int64_t(2)}}, {{2, 3, 5}, {5, 2, 3}}}));
  for (bool ta : {false, true}) {
    SCOPED_TRACE("transpose_a " + std::to_string(ta));
    Shape a = ta ? Shape{2, 4, 3} : Shape{2, 3, 4};
    compare_with_cpu(half({"BatchMatmul", {{"transpose_a", ta}, {"transpose_b", true}}, {a, {2, 5, 4}}}));
  }
}

TEST(GpuOps, SoftmaxFamily) {
  NN_SKIP_WITHOUT_GPU();
  compare_with_cpu({"Softmax", {{"axis", int64_t(1)}}, {{2, 5, 3}}});
  compare_with_cpu({"LogSoftmax", {}, {{4, 7}}});
  GpuCase sce{"SoftmaxCrossEntropy", {}, {{4, 7}, {4, 1}}, {{}, {0, 6, 3, 1}}, {true, false}};
  compare_with_cpu(sce);
  GpuCase sce_axis{"SoftmaxCrossEntropy", {{"axis", int64_t(1)}}, {{2, 3, 4}, {2, 1, 4}},
                   {{}, {0, 1, 2, 0, 2, 2, 1, 0}}, {true, false}};
  compare_with_cpu(sce_axis);
}

TEST(GpuOps, Reductions) {
  NN_SKIP_WITHOUT_GPU();
  for (const char* op : {"Sum", "Mean"}) {
    SCOPED_TRACE(op);
    compare_with_cpu({op, {{"axes", Ints{1}}}, {{3, 4, 5}}});
    compare_with_cpu({op, {{"axes", Ints{0, 2}}, {"keep_dims", true}}, {{3, 4, 5}}});
    compare_with_cpu({op, {}, {{3, 4, 5}}});
    compare_with_cpu({op, {{"axes", Ints{1}}}, {{2, 3000}}});  // more reduced elements than threads
  }
}

TEST(GpuOps, DataMovement) {
  NN_SKIP_WITHOUT_GPU();
  compare_with_cpu({"Reshape", {{"shape", Ints{6, -1}}}, {{3, 4, 5}}});
  compare_with_cpu({"Transpose", {{"axes", Ints{2, 0, 1}}}, {{3, 4, 5}}});
  compare_with_cpu({"Slice", {{"start", Ints{1, 0}}, {"stop", Ints{4, 5}}, {"step", Ints{2, 2}}}, {{3, 5, 6}}});
  compare_with_cpu({"Slice", {{"start", Ints{-1}}, {"stop", Ints{-6}}, {"step", Ints{-2}}}, {{3, 6}}});
  compare_with_cpu({"Concatenate", {{"axis", int64_t(1)}}, {{2, 3, 4}, {2, 5, 4}, {2, 1, 4}}});
}

}  // namespace
}  // namespace nn::gpu_test
