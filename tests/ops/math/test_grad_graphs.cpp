// Graph gradients (grad_graph) of the elementwise math/activation/scalar ops: first and second derivatives
// through nn::grad against closed forms in double.
#include <gtest/gtest.h>

#include <cmath>

#include "nn/graph/functions.hpp"
#include "nn/graph/grad.hpp"
#include "op_tester.hpp"

using namespace nn;

namespace {
struct Case {
  const char* op;
  Attrs attrs;
  std::vector<double> xs;
  double (*d1)(double);
  double (*d2)(double);
};

void check(const Case& c) {
  SCOPED_TRACE(c.op);
  auto x = Variable::create({int64_t(c.xs.size())}, true);
  float* p = x->data()->cast<float>(true);
  for (size_t i = 0; i < c.xs.size(); ++i) p[i] = float(c.xs[i]);
  auto y = call1(c.op, {x}, c.attrs);
  auto g1 = grad({y}, {x})[0];
  auto g2 = grad({g1}, {x})[0];
  g1->forward();
  g2->forward();
  auto v1 = g1->data()->to_vector();
  auto v2 = g2->data()->to_vector();
  for (size_t i = 0; i < c.xs.size(); ++i) {
    double x0 = double(float(c.xs[i]));
    EXPECT_NEAR(v1[i], c.d1(x0), 1e-4 + 1e-4 * std::fabs(c.d1(x0))) << "first derivative at " << x0;
    EXPECT_NEAR(v2[i], c.d2(x0), 1e-4 + 1e-4 * std::fabs(c.d2(x0))) << "second derivative at " << x0;
  }
}
double sig(double x) { return 1 / (1 + std::exp(-x)); }
const std::vector<double> kWide = {-2.1, -0.7, 0.3, 1.6};
const std::vector<double> kUnit = {-0.8, -0.3, 0.2, 0.7};
}  // namespace

TEST(ElementwiseGradGraph, SecondDerivatives) {
  const double k = 2 / std::sqrt(M_PI);
  std::vector<Case> cases = {
      {"Sigmoid",
       {},
       kWide,
       [](double x) { return sig(x) * (1 - sig(x)); },
       [](double x) { return sig(x) * (1 - sig(x)) * (1 - 2 * sig(x)); }},
      {"Tanh",
       {},
       kWide,
       [](double x) { return 1 - std::pow(std::tanh(x), 2); },
       [](double x) { return -2 * std::tanh(x) * (1 - std::pow(std::tanh(x), 2)); }},
      {"Exp", {}, kWide, [](double x) { return std::exp(x); }, [](double x) { return std::exp(x); }},
      {"Log", {}, {0.4, 1.0, 2.5}, [](double x) { return 1 / x; }, [](double x) { return -1 / (x * x); }},
      {"Abs", {}, kWide, [](double x) { return x > 0 ? 1.0 : -1.0; }, [](double) { return 0.0; }},
      {"Tan",
       {},
       kUnit,
       [](double x) { return 1 / std::pow(std::cos(x), 2); },
       [](double x) { return 2 * std::tan(x) / std::pow(std::cos(x), 2); }},
      {"Sinh", {}, kWide, [](double x) { return std::cosh(x); }, [](double x) { return std::sinh(x); }},
      {"Cosh", {}, kWide, [](double x) { return std::sinh(x); }, [](double x) { return std::cosh(x); }},
      {"ASin",
       {},
       kUnit,
       [](double x) { return 1 / std::sqrt(1 - x * x); },
       [](double x) { return x / std::pow(1 - x * x, 1.5); }},
      {"ACos",
       {},
       kUnit,
       [](double x) { return -1 / std::sqrt(1 - x * x); },
       [](double x) { return -x / std::pow(1 - x * x, 1.5); }},
      {"ATan",
       {},
       kWide,
       [](double x) { return 1 / (1 + x * x); },
       [](double x) { return -2 * x / std::pow(1 + x * x, 2); }},
      {"ASinh",
       {},
       kWide,
       [](double x) { return 1 / std::sqrt(x * x + 1); },
       [](double x) { return -x / std::pow(x * x + 1, 1.5); }},
      {"ACosh",
       {},
       {1.3, 2.0, 3.1},
       [](double x) { return 1 / std::sqrt(x * x - 1); },
       [](double x) { return -x / std::pow(x * x - 1, 1.5); }},
      {"ATanh",
       {},
       kUnit,
       [](double x) { return 1 / (1 - x * x); },
       [](double x) { return 2 * x / std::pow(1 - x * x, 2); }},
      {"RSubScalar", {{"val", 3.0}}, kWide, [](double) { return -1.0; }, [](double) { return 0.0; }},
      {"RDivScalar",
       {{"val", 3.0}},
       {0.5, 1.2, -1.7},
       [](double x) { return -3 / (x * x); },
       [](double x) { return 6 / (x * x * x); }},
      {"RPowScalar",
       {{"val", 2.0}},
       kWide,
       [](double x) { return std::pow(2.0, x) * std::log(2.0); },
       [](double x) { return std::pow(2.0, x) * std::pow(std::log(2.0), 2); }},
      {"MaximumScalar",
       {{"val", 0.0}},
       kWide,
       [](double x) { return x > 0 ? 1.0 : 0.0; },
       [](double) { return 0.0; }},
      {"MinimumScalar",
       {{"val", 0.0}},
       kWide,
       [](double x) { return x < 0 ? 1.0 : 0.0; },
       [](double) { return 0.0; }},
      {"Sign", {}, kWide, [](double) { return 1.0; }, [](double) { return 0.0; }},
      {"Round", {}, kWide, [](double) { return 1.0; }, [](double) { return 0.0; }},
  };
  for (const auto& c : cases) check(c);
  // Erf separately: the lambdas above cannot capture k.
  auto x = Variable::create({3}, true);
  float* p = x->data()->cast<float>(true);
  p[0] = -0.9f, p[1] = 0.2f, p[2] = 1.4f;
  auto g1 = grad({call1("Erf", {x})}, {x})[0];
  auto g2 = grad({g1}, {x})[0];
  g1->forward();
  g2->forward();
  for (int i = 0; i < 3; ++i) {
    double v = double(p[i]);
    EXPECT_NEAR(g1->data()->to_vector()[i], k * std::exp(-v * v), 1e-5);
    EXPECT_NEAR(g2->data()->to_vector()[i], -2 * v * k * std::exp(-v * v), 1e-5);
  }
}

TEST(ElementwiseGradGraph, BinaryFirstAndSecondOrder) {
  // y = sum(a ^ b): d/da = b a^(b-1), d/db = a^b log a, d2/da2 = b (b-1) a^(b-2).
  auto a = Variable::create({3}, true);
  auto b = Variable::create({1}, true);
  float* pa = a->data()->cast<float>(true);
  pa[0] = 0.5f, pa[1] = 1.5f, pa[2] = 2.5f;
  b->data()->cast<float>(true)[0] = 1.7f;
  auto y = call1("Pow2", {a, b});
  auto gs = grad({y}, {a, b});
  auto gaa = grad({gs[0]}, {a})[0];
  gs[0]->forward();
  gs[1]->forward();
  gaa->forward();
  const double bb = double(1.7f);
  double gb = 0;
  for (int i = 0; i < 3; ++i) {
    double av = double(pa[i]);
    EXPECT_NEAR(gs[0]->data()->to_vector()[i], bb * std::pow(av, bb - 1), 1e-5);
    EXPECT_NEAR(gaa->data()->to_vector()[i], bb * (bb - 1) * std::pow(av, bb - 2), 1e-4);
    gb += std::pow(av, bb) * std::log(av);
  }
  EXPECT_NEAR(gs[1]->data()->to_vector()[0], gb, 1e-4);

  // Maximum2 / Minimum2 route the gradient to the selected input (ties to x1).
  auto c = Variable::create({3}, true);
  float* pc = c->data()->cast<float>(true);
  pc[0] = 1.0f, pc[1] = 1.5f, pc[2] = 3.0f;
  auto gmax = grad({call1("Maximum2", {a, c})}, {a, c});
  auto gmin = grad({call1("Minimum2", {a, c})}, {a, c});
  for (auto& g : gmax) g->forward();
  for (auto& g : gmin) g->forward();
  const std::vector<float> max_a = {0, 0, 0}, max_c = {1, 1, 1}, min_a = {1, 0, 1}, min_c = {0, 1, 0};
  EXPECT_EQ(gmax[0]->data()->to_vector(), max_a);
  EXPECT_EQ(gmax[1]->data()->to_vector(), max_c);
  EXPECT_EQ(gmin[0]->data()->to_vector(), min_a);
  EXPECT_EQ(gmin[1]->data()->to_vector(), min_c);
}
