// CUDA math, activation, arithmetic and loss kernels against cpu:float (float and half), and Dropout's
// statistics and forward/backward mask agreement.
#include "gpu_compare.hpp"

namespace nn::gpu_test {
namespace {

using Ints = std::vector<int64_t>;

GpuCase as_half(GpuCase c, double tol = 1e-2) {
  c.context = "cudnn:half";
  c.rtol = c.atol = tol;
  return c;
}

// Multiples of 1/256 in [lo, hi): exact in fp16, so comparisons (Maximum2 ties, step functions) agree
// between the fp16 kernel and the float CPU kernel.
std::vector<float> half_exact(const Shape& s, float lo, float hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(int(std::ceil(lo * 256.f)), int(std::ceil(hi * 256.f)) - 1);
  std::vector<float> v(size_t(shape_size(s)));
  for (auto& x : v) x = float(u(rng)) / 256.f;
  return v;
}

// Integer labels (as floats) in [0, classes).
std::vector<float> labels(int64_t n, int64_t classes, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> u(0, classes - 1);
  std::vector<float> v(static_cast<size_t>(n));
  for (auto& x : v) x = float(u(rng));
  return v;
}

void compare_float_and_half(const GpuCase& c, double half_tol = 1e-2) {
  {
    SCOPED_TRACE("float");
    compare_with_cpu(c);
  }
  SCOPED_TRACE("half");
  compare_with_cpu(as_half(c, half_tol));
}

TEST(GpuMath, UnaryMathAndActivations) {
  NN_SKIP_WITHOUT_GPU();
  for (const Shape& s : {Shape{3, 4, 5}, Shape{7}, Shape{2, 1, 3, 1000}}) {
    SCOPED_TRACE(to_string(s));
    for (const char* op : {"Exp", "Abs", "SELU", "SoftPlus"}) {
      SCOPED_TRACE(op);
      GpuCase c{op, {}, {s}};
      c.lo = -3.f, c.hi = 3.f;
      compare_float_and_half(c, 2e-2);
    }
    GpuCase log{"Log", {}, {s}};
    log.lo = 0.25f, log.hi = 4.f;
    compare_float_and_half(log);
  }
  compare_float_and_half({"SELU", {{"scale", 2.0}, {"alpha", 0.5}}, {{4, 6}}});
  compare_float_and_half({"SoftPlus", {{"beta", 2.5}}, {{4, 6}}});
  GpuCase softplus_wide{"SoftPlus", {{"beta", 0.5}}, {{50}}};
  softplus_wide.lo = -60.f, softplus_wide.hi = 60.f;
  compare_with_cpu(softplus_wide);
}

TEST(GpuMath, BinaryActivations) {
  NN_SKIP_WITHOUT_GPU();
  for (const char* op : {"BinarySigmoid", "BinaryTanh"}) {
    SCOPED_TRACE(op);
    const Shape s{4, 5, 6};
    GpuCase c{op, {}, {s}};
    c.lo = -2.f, c.hi = 2.f;
    compare_with_cpu(c);
    c.values = {half_exact(s, -2.f, 2.f, 3)};  // includes 0 and +-1 exactly
    compare_float_and_half(c);
  }
}

TEST(GpuMath, ConcatActivations) {
  NN_SKIP_WITHOUT_GPU();
  for (const char* op : {"CReLU", "CELU"}) {
    for (int64_t axis : {0, 1, 2, -1}) {
      SCOPED_TRACE(std::string(op) + " axis " + std::to_string(axis));
      compare_float_and_half({op, {{"axis", axis}}, {{2, 3, 4}}});
    }
  }
  compare_float_and_half({"CELU", {{"alpha", 0.3}}, {{5, 7}}});
  compare_float_and_half({"CReLU", {}, {{2, 3, 1000}}});
}

TEST(GpuMath, PReLU) {
  NN_SKIP_WITHOUT_GPU();
  struct Case {
    Shape x, w;
    int64_t base_axis;
  };
  for (const Case& k : {Case{{2, 3, 4}, {1}, 1}, Case{{2, 3, 4}, {3}, 1}, Case{{2, 3, 4}, {4}, 2},
                        Case{{2, 3, 4}, {2}, 0}, Case{{5, 6}, {6}, 1}}) {
    SCOPED_TRACE(to_string(k.x) + " " + to_string(k.w) + " base_axis " + std::to_string(k.base_axis));
    GpuCase c{"PReLU", {{"base_axis", k.base_axis}}, {k.x, k.w}};
    compare_float_and_half(c);
    c.grad = {true, false};
    compare_with_cpu(c);
    c.grad = {false, true};
    compare_with_cpu(c);
  }
  // Slope sums over many blocks per channel, and over all elements for a shared slope.
  GpuCase big{"PReLU", {{"base_axis", int64_t(1)}}, {{4, 3, 5000}, {3}}};
  big.rtol = 1e-3, big.atol = 1e-3;
  compare_with_cpu(big);
  GpuCase shared{"PReLU", {}, {{8, 3, 2000}, {1}}};
  shared.rtol = 1e-3, shared.atol = 1e-3;
  compare_with_cpu(shared);
}

TEST(GpuMath, Pow2Maximum2Minimum2) {
  NN_SKIP_WITHOUT_GPU();
  const std::vector<std::vector<Shape>> shape_sets = {
      {{3, 4, 5}, {3, 4, 5}}, {{3, 4, 5}, {1, 4, 1}}, {{4, 5}, {3, 4, 5}}, {{3, 1, 5}, {1, 4, 1}}, {{2, 3}, {1}}};
  for (const auto& shapes : shape_sets) {
    SCOPED_TRACE(to_string(shapes[0]) + " " + to_string(shapes[1]));
    GpuCase pow{"Pow2", {}, shapes};
    pow.lo = 0.5f, pow.hi = 2.f;
    compare_float_and_half(pow, 3e-2);
    for (const char* op : {"Maximum2", "Minimum2"}) {
      SCOPED_TRACE(op);
      // Few levels: ties occur and must send the gradient the same way.
      GpuCase c{op, {}, shapes, {half_exact(shapes[0], -0.1f, 0.1f, 1), half_exact(shapes[1], -0.1f, 0.1f, 2)}};
      compare_float_and_half(c);
    }
  }
}

TEST(GpuMath, ElementwiseLosses) {
  NN_SKIP_WITHOUT_GPU();
  const Shape s{4, 5, 3};
  GpuCase sce{"SigmoidCrossEntropy", {}, {s, s}, {{}, labels(60, 2, 4)}, {true, false}};
  sce.lo = -4.f, sce.hi = 4.f;
  compare_with_cpu(sce);
  GpuCase sce_soft{"SigmoidCrossEntropy", {}, {{7, 9}, {7, 9}}, {}, {true, false}};
  compare_with_cpu(sce_soft);

  GpuCase bce{"BinaryCrossEntropy", {}, {s, s}};
  bce.lo = 0.05f, bce.hi = 0.95f;
  compare_with_cpu(bce);
  bce.values = {{}, labels(60, 2, 5)};
  compare_with_cpu(bce);

  const std::vector<std::vector<Shape>> shape_sets = {
      {{3, 4, 5}, {3, 4, 5}}, {{3, 4, 5}, {1, 4, 1}}, {{4, 5}, {3, 4, 5}}, {{3, 1, 5}, {1, 4, 1}}};
  for (const auto& shapes : shape_sets) {
    SCOPED_TRACE(to_string(shapes[0]) + " " + to_string(shapes[1]));
    compare_with_cpu({"AbsoluteError", {}, shapes});
    compare_with_cpu({"HuberLoss", {}, shapes});
    compare_with_cpu({"HuberLoss", {{"delta", 0.3}}, shapes});
    GpuCase wide{"HuberLoss", {{"delta", 2.0}}, shapes};
    wide.lo = -3.f, wide.hi = 3.f;
    compare_with_cpu(wide);
  }
}

TEST(GpuMath, ErrorIndicators) {
  NN_SKIP_WITHOUT_GPU();
  GpuCase binary_error{"BinaryError", {}, {{4, 6}, {4, 6}}};
  binary_error.lo = 0.f, binary_error.hi = 1.f;
  compare_with_cpu(binary_error);
  for (int64_t n : {1, 3}) {
    SCOPED_TRACE("n " + std::to_string(n));
    compare_with_cpu({"TopNError", {{"n", n}}, {{6, 7}, {6, 1}}, {{}, labels(6, 7, 8)}});
    compare_with_cpu({"TopNError", {{"n", n}, {"axis", int64_t(1)}}, {{2, 5, 3}, {2, 1, 3}}, {{}, labels(6, 5, 9)}});
  }
}

TEST(GpuMath, CategoricalCrossEntropy) {
  NN_SKIP_WITHOUT_GPU();
  GpuCase last{"CategoricalCrossEntropy", {}, {{6, 7}, {6, 1}}, {{}, labels(6, 7, 1)}, {true, false}};
  last.lo = 0.05f, last.hi = 1.f;
  compare_with_cpu(last);
  GpuCase axis{
      "CategoricalCrossEntropy", {{"axis", int64_t(1)}}, {{2, 4, 5}, {2, 1, 5}}, {{}, labels(10, 4, 2)}, {true, false}};
  axis.lo = 0.05f, axis.hi = 1.f;
  compare_with_cpu(axis);
}

TEST(GpuMath, EmbedAndOneHot) {
  NN_SKIP_WITHOUT_GPU();
  // Repeated indices: their rows of dw receive several atomic adds.
  compare_with_cpu({"Embed", {}, {{2, 3}, {5, 4}}, {{0, 4, 2, 2, 4, 4}, {}}, {false, true}});
  compare_with_cpu({"Embed", {}, {{40}, {6, 2, 3}}, {labels(40, 6, 3), {}}, {false, true}});
  compare_with_cpu({"OneHot", {{"shape", Ints{3, 4}}}, {{3, 2}}, {{0, 1, 2, 3, 1, 0}}});
  compare_with_cpu({"OneHot", {{"shape", Ints{5}}}, {{2, 3, 1}}, {labels(6, 5, 6)}});
}

// Dropout on the GPU draws its own mask: checks the dropped fraction, the scaling of kept values, that
// backward applies the forward mask, accumulation, and that a seed makes the masks reproducible.
struct DropoutRun {
  std::vector<float> x, y, dy, dx, dx_accum;
};

DropoutRun run_dropout(double p, int64_t seed, const std::string& context, int64_t n) {
  auto f = OpRegistry::instance().create("Dropout", {{"p", p}, {"seed", seed}}, parse_context(context));
  EXPECT_TRUE(f->is_stochastic());
  auto x = Variable::create({n}, true);
  auto y = Variable::create({}, true);
  DropoutRun r;
  std::mt19937 rng(3);
  r.x = random_values(n, rng, 0.5f, 1.5f);  // nonzero, so y / x recovers the mask
  fill(x->data(), r.x);
  Variables in{x.get()}, out{y.get()};
  f->setup(in, out);
  f->forward(in, out);
  r.y = y->data()->to_vector();
  r.dy = random_values(n, rng, -1.f, 1.f);
  fill(y->grad(), r.dy);
  f->backward(in, out, {true}, {false});
  r.dx = x->grad()->to_vector();
  x->grad()->fill(0.5);
  f->backward(in, out, {true}, {true});
  r.dx_accum = x->grad()->to_vector();
  return r;
}

TEST(GpuMath, DropoutStatisticsAndMask) {
  NN_SKIP_WITHOUT_GPU();
  const int64_t n = 200000;
  for (const char* context : {"cudnn", "cudnn:half"}) {
    const bool half = parse_context(context).uses_half();
    const double tol = half ? 2e-3 : 1e-5;
    for (double p : {0.1, 0.5, 0.8}) {
      SCOPED_TRACE(std::string(context) + " p " + std::to_string(p));
      const DropoutRun r = run_dropout(p, 11, context, n);
      const double scale = 1.0 / (1.0 - p);
      int64_t dropped = 0;
      for (int64_t i = 0; i < n; ++i) {
        const double mask = r.y[i] / r.x[i];  // 0 or scale
        if (r.y[i] == 0.f) {
          ++dropped;
        } else {
          ASSERT_NEAR(mask, scale, tol * scale) << "kept element " << i;
        }
        const double expected = r.dy[i] * (r.y[i] == 0.f ? 0.0 : scale);
        ASSERT_NEAR(r.dx[i], expected, tol * (1.0 + std::fabs(expected))) << "dx element " << i;
        ASSERT_NEAR(r.dx_accum[i], 0.5 + expected, tol * (1.0 + std::fabs(expected))) << "dx (accum) element " << i;
      }
      // 6 standard deviations of the binomial fraction.
      EXPECT_NEAR(double(dropped) / double(n), p, 6.0 * std::sqrt(p * (1.0 - p) / double(n)));
    }
  }
}

TEST(GpuMath, DropoutSeedsAndCalls) {
  NN_SKIP_WITHOUT_GPU();
  const int64_t n = 4096;
  const DropoutRun a = run_dropout(0.5, 5, "cudnn", n);
  const DropoutRun b = run_dropout(0.5, 5, "cudnn", n);
  const DropoutRun c = run_dropout(0.5, 6, "cudnn", n);
  EXPECT_EQ(a.y, b.y) << "the same seed gives the same mask";
  EXPECT_NE(a.y, c.y) << "another seed gives another mask";

  // Two forwards of one function draw different masks; backward follows the latest.
  auto f = OpRegistry::instance().create("Dropout", {{"p", 0.5}, {"seed", int64_t(5)}}, parse_context("cudnn"));
  auto x = Variable::create({n}, true);
  auto y = Variable::create({}, true);
  x->data()->fill(1.0);
  Variables in{x.get()}, out{y.get()};
  f->setup(in, out);
  f->forward(in, out);
  const auto first = y->data()->to_vector();
  f->forward(in, out);
  const auto second = y->data()->to_vector();
  EXPECT_NE(first, second);
  y->grad()->fill(1.0);
  f->backward(in, out, {true}, {false});
  EXPECT_EQ(x->grad()->to_vector(), second);

  // p outside (0, 1) is refused at setup, as on the CPU.
  auto bad = OpRegistry::instance().create("Dropout", {{"p", 1.0}}, parse_context("cudnn"));
  EXPECT_THROW(bad->setup(in, out), Error);
}

}  // namespace
}  // namespace nn::gpu_test
