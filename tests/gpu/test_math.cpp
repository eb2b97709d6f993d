// CUDA math, activation, arithmetic and loss kernels against cpu:float: fp16 kernels, float cases past one block
// or with crafted values; and Dropout's statistics and forward/backward mask agreement.
#include "gpu_compare.hpp"

namespace nn::gpu_test {
namespace {

// Multiples of 1/256 in [lo, hi): exact in fp16, so comparisons (Maximum2 ties, step functions) agree
// between the fp16 kernel and the float CPU kernel.
std::vector<float> half_exact(const Shape& s, float lo, float hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(int(std::ceil(lo * 256.f)), int(std::ceil(hi * 256.f)) - 1);
  std::vector<float> v(size_t(shape_size(s)));
  for (auto& x : v) x = float(u(rng)) / 256.f;
  return v;
}

TEST(GpuMath, UnaryMathAndActivations) {
  NN_SKIP_WITHOUT_GPU();
  for (const Shape& s : {Shape{3, 4, 5}, Shape{7}, Shape{2, 1, 3, 1000}}) {
    SCOPED_TRACE(to_string(s));
    for (const char* op : {"Exp", "Abs", "SELU", "SoftPlus"}) {
      SCOPED_TRACE(op);
      GpuCase c{op, {}, {s}};
      c.lo = -3.f, c.hi = 3.f;
      compare_both(c, 2e-2);
    }
    GpuCase log{"Log", {}, {s}};
    log.lo = 0.25f, log.hi = 4.f;
    compare_both(log);
  }
  compare_both({"SELU", {{"scale", 2.0}, {"alpha", 0.5}}, {{4, 6}}});
  compare_both({"SoftPlus", {{"beta", 2.5}}, {{4, 6}}});
  GpuCase softplus_wide{"SoftPlus", {{"beta", 0.5}}, {{50}}};  // crafted: the overflow-safe branches
  softplus_wide.lo = -60.f, softplus_wide.hi = 60.f;
  compare_with_cpu(softplus_wide);
}

TEST(GpuMath, BinaryActivations) {
  NN_SKIP_WITHOUT_GPU();
  for (const char* op : {"BinarySigmoid", "BinaryTanh"}) {
    SCOPED_TRACE(op);
    const Shape s{4, 5, 6};
    GpuCase c{op, {}, {s}};
    c.values = {half_exact(s, -2.f, 2.f, 3)};  // includes 0 and +-1 exactly
    compare_both(c);
  }
}

TEST(GpuMath, ConcatActivations) {
  NN_SKIP_WITHOUT_GPU();
  for (const char* op : {"CReLU", "CELU"}) {
    for (int64_t axis : {0, 1, 2, -1}) {
      SCOPED_TRACE(std::string(op) + " axis " + std::to_string(axis));
      compare_both({op, {{"axis", axis}}, {{2, 3, 4}}});
    }
  }
  compare_both({"CELU", {{"alpha", 0.3}}, {{5, 7}}});
  compare_both({"CReLU", {}, {{2, 3, 1000}}});
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
    compare_both({"PReLU", {{"base_axis", k.base_axis}}, {k.x, k.w}});
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
    compare_both(pow, 3e-2);
    for (const char* op : {"Maximum2", "Minimum2"}) {
      SCOPED_TRACE(op);
      // Few levels: ties occur and must send the gradient the same way.
      GpuCase c{op, {}, shapes, {half_exact(shapes[0], -0.1f, 0.1f, 1), half_exact(shapes[1], -0.1f, 0.1f, 2)}};
      compare_both(c);
    }
  }
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
        ASSERT_NEAR(r.dx_accum[i], 0.5 + expected, tol * (1.0 + std::fabs(expected)))
            << "dx (accum) element " << i;
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
