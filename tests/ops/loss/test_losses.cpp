// Loss functions against double references; label inputs of the cross entropies get no gradient.
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"

using namespace nn::test;

namespace {
struct Split {
  int64_t outer = 1, size = 1, inner = 1;
};
Split split(const nn::Shape& s, int axis) {
  Split r;
  for (int d = 0; d < int(s.size()); ++d) {
    if (d < axis)
      r.outer *= s[d];
    else if (d == axis)
      r.size = s[d];
    else
      r.inner *= s[d];
  }
  return r;
}
nn::Shape label_shape(nn::Shape s, int axis) {
  s[size_t(axis)] = 1;
  return s;
}
int axis_of(const nn::Attrs& a, size_t nd) {
  int64_t ax = a.get_int("axis", int64_t(nd) - 1);
  return int(ax < 0 ? ax + int64_t(nd) : ax);
}
// -log(softmax(x)[t]) (softmax=true) or -log(x[t]) along axis.
std::vector<RefArray> label_loss_ref(const RefInputs& in, const nn::Attrs& a, bool softmax) {
  const RefArray& x = in[0];
  int axis = axis_of(a, x.shape.size());
  Split sp = split(x.shape, axis);
  RefArray y{label_shape(x.shape, axis), std::vector<double>(size_t(sp.outer * sp.inner))};
  for (int64_t o = 0; o < sp.outer; ++o)
    for (int64_t j = 0; j < sp.inner; ++j) {
      auto at = [&](int64_t c) { return x.data[size_t((o * sp.size + c) * sp.inner + j)]; };
      int64_t t = int64_t(in[1].data[size_t(o * sp.inner + j)]);
      double v;
      if (softmax) {
        double s = 0;
        for (int64_t c = 0; c < sp.size; ++c) s += std::exp(at(c));
        v = std::log(s) - at(t);
      } else {
        v = -std::log(at(t));
      }
      y.data[size_t(o * sp.inner + j)] = v;
    }
  return {y};
}
void check_label_loss(const char* op, bool softmax, double lo, double hi) {
  std::mt19937 rng(61);
  Reference ref = [softmax](const RefInputs& in, const nn::Attrs& a) { return label_loss_ref(in, a, softmax); };
  for (int64_t axis : {2, 1, 0}) {
    nn::Shape xs{3, 4, 5};
    OpTestCase tc{
        op,
        {{"axis", axis}},
        {random_input(xs, rng, lo, hi), random_labels(label_shape(xs, int(axis)), rng, xs[size_t(axis)])},
        ref};
    tc.check_grad = {true, false};
    run_op_test(tc);
  }
  OpTestCase def{op, {}, {random_input({6, 4}, rng, lo, hi), random_labels({6, 1}, rng, 4)}, ref};
  def.check_grad = {true, false};
  run_op_test(def);
}
}  // namespace

TEST(SoftmaxCrossEntropy, Axes) { check_label_loss("SoftmaxCrossEntropy", true, -3, 3); }
TEST(SoftmaxCrossEntropy, StableForLargeLogits) {
  std::mt19937 rng(62);
  OpTestCase tc{"SoftmaxCrossEntropy",
                {},
                {random_input({4, 3}, rng, 300, 310), random_labels({4, 1}, rng, 3)},
                [](const RefInputs& in, const nn::Attrs& a) {
                  RefArray x = in[0];
                  for (auto& v : x.data) v -= 305;  // shift so the double reference itself does not overflow
                  return label_loss_ref({x, in[1]}, a, true);
                }};
  tc.check_grad = {true, false};
  tc.eps = 1e-2;  // float inputs near 300 resolve only ~3e-5
  run_op_test(tc);
}
TEST(SoftmaxCrossEntropy, RejectsBadLabelShape) {
  std::mt19937 rng(63);
  EXPECT_ANY_THROW(
      run_op_test({"SoftmaxCrossEntropy",
                   {},
                   {random_input({4, 3}, rng), random_labels({4, 3}, rng, 3)},
                   [](const RefInputs& in, const nn::Attrs& a) { return label_loss_ref(in, a, true); }}));
}
TEST(CategoricalCrossEntropy, Axes) { check_label_loss("CategoricalCrossEntropy", false, 0.1, 1.0); }

namespace {
using Elem2 = double (*)(double, double, const nn::Attrs&);
Reference elementwise(Elem2 f) {
  return [f](const RefInputs& in, const nn::Attrs& a) {
    RefArray y = in[0];
    for (size_t i = 0; i < y.data.size(); ++i) y.data[i] = f(in[0].data[i], in[1].data[i], a);
    return std::vector<RefArray>{y};
  };
}
// x0 in [-2, 2), x1 = x0 + d with |d| kept away from the kinks.
std::vector<RefArray> pair_off_kinks(std::mt19937& rng, std::vector<double> kinks) {
  RefArray a = random_input({3, 4}, rng, -2, 2);
  RefArray d = random_input({3, 4}, rng, -3, 3, kinks, 0.05);
  RefArray b = a;
  for (size_t i = 0; i < b.data.size(); ++i) b.data[i] = double(float(a.data[i] - d.data[i]));
  return {a, b};
}
}  // namespace

TEST(SigmoidCrossEntropy, ForwardBackward) {
  std::mt19937 rng(64);
  OpTestCase tc{"SigmoidCrossEntropy",
                {},
                {random_input({3, 4}, rng, -4, 4), random_labels({3, 4}, rng, 2)},
                elementwise([](double x, double t, const nn::Attrs&) {
                  double s = 1 / (1 + std::exp(-x));
                  return -(t * std::log(s) + (1 - t) * std::log(1 - s));
                })};
  tc.check_grad = {true, false};
  run_op_test(tc);
}
TEST(BinaryCrossEntropy, ForwardBackwardBothInputs) {
  std::mt19937 rng(65);
  run_op_test({"BinaryCrossEntropy",
               {},
               {random_input({3, 4}, rng, 0.1, 0.9), random_input({3, 4}, rng, 0, 1)},
               elementwise([](double x, double t, const nn::Attrs&) {
                 return -(t * std::log(x) + (1 - t) * std::log(1 - x));
               })});
}
TEST(SquaredError, ForwardBackward) {
  std::mt19937 rng(66);
  run_op_test({"SquaredError",
               {},
               {random_input({3, 4}, rng), random_input({3, 4}, rng)},
               elementwise([](double a, double b, const nn::Attrs&) { return (a - b) * (a - b); })});
}
TEST(AbsoluteError, ForwardBackward) {
  std::mt19937 rng(67);
  run_op_test(
      {"AbsoluteError", {}, pair_off_kinks(rng, {0}), elementwise([](double a, double b, const nn::Attrs&) {
         return std::fabs(a - b);
       })});
}
TEST(HuberLoss, DefaultAndDelta) {
  auto f = [](double a, double b, const nn::Attrs& at) {
    double d = std::fabs(a - b), delta = at.get_float("delta", 1.0);
    return d < delta ? d * d : delta * (2 * d - delta);
  };
  std::mt19937 rng(68);
  run_op_test({"HuberLoss", {}, pair_off_kinks(rng, {0}), elementwise(f)});
  run_op_test({"HuberLoss", {{"delta", 0.5}}, pair_off_kinks(rng, {0}), elementwise(f)});
}
TEST(EpsilonInsensitiveLoss, ForwardBackward) {
  std::mt19937 rng(69);
  run_op_test({"EpsilonInsensitiveLoss",
               {{"epsilon", 0.5}},
               pair_off_kinks(rng, {-0.5, 0.5}),
               elementwise([](double a, double b, const nn::Attrs& at) {
                 double d = std::fabs(a - b) - at.get_float("epsilon", 0);
                 return d > 0 ? d : 0.0;
               })});
}
TEST(KLMultinomial, BaseAxes) {
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    int64_t base = a.get_int("base_axis", 1);
    nn::Shape os(in[0].shape.begin(), in[0].shape.begin() + base);
    os.push_back(1);
    int64_t rows = ref_size(os), k = ref_size(in[0].shape) / rows;
    RefArray y{os, std::vector<double>(size_t(rows))};
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < k; ++j) {
        double p = in[0].data[size_t(i * k + j)], q = in[1].data[size_t(i * k + j)];
        y.data[size_t(i)] += p * (std::log(p + 1e-8) - std::log(q + 1e-8));
      }
    return std::vector<RefArray>{y};
  };
  std::mt19937 rng(70);
  run_op_test({"KLMultinomial", {}, {random_input({3, 4}, rng, 0.1, 1), random_input({3, 4}, rng, 0.1, 1)}, ref});
  run_op_test({"KLMultinomial",
               {{"base_axis", int64_t(2)}},
               {random_input({2, 3, 4}, rng, 0.1, 1), random_input({2, 3, 4}, rng, 0.1, 1)},
               ref});
}
