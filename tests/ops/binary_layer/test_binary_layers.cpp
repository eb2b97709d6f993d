// Binary layers: BinarySigmoid/BinaryTanh and the binarized-weight Affine/Convolution layers. Their gradients
// are straight-through estimators (not derivatives of the forward), so they are checked directly here; the
// op tester covers forward values and the true derivatives (x, bias).
#include <gtest/gtest.h>

#include <cmath>

#include "../nn_layer/conv_reference.hpp"
#include "../nn_layer/direct_run.hpp"

using namespace nn::test;
using V = std::vector<int64_t>;

namespace {
std::vector<double> random_vec(size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(n);
  for (auto& e : v) e = double(float(u(rng)));
  return v;
}

// Straight-through gradient of an elementwise binary activation.
void check_binary_activation(const char* type, double lo_value, double slope) {
  std::mt19937 rng(1);
  auto x = random_input({3, 7}, rng, -2.0, 2.0, {-1.0, 0.0, 1.0});
  OpTestCase tc{type, {}, {x}, [lo_value](const RefInputs& in, const nn::Attrs&) {
                  RefArray y = in[0];
                  for (auto& v : y.data) v = v > 0 ? 1.0 : lo_value;
                  return std::vector<RefArray>{y};
                }};
  tc.check_backward = false;
  run_op_test(tc);
  auto g = random_vec(x.data.size(), rng);
  for (bool accum : {false, true}) {
    auto o = run_direct(type, {}, {x}, g, {true}, accum, 0.25f);
    for (size_t i = 0; i < g.size(); ++i) {
      const double want = (accum ? 0.25 : 0.0) + (std::fabs(x.data[i]) >= 1 ? 0.0 : slope * g[i]);
      EXPECT_NEAR(o.grad[0][i], want, 1e-6) << type << " grad at " << i << " x=" << x.data[i];
    }
  }
}

// Gradient of sum(g * f(w)) with respect to w by central differences (f is linear in w: exact).
template <class F>
std::vector<double> weight_grad(const RefArray& w, const std::vector<double>& g, F&& f) {
  std::vector<double> d(w.data.size());
  for (size_t k = 0; k < w.data.size(); ++k) {
    RefArray p = w, m = w;
    p.data[k] += 0.5;
    m.data[k] -= 0.5;
    const auto yp = f(p), ym = f(m);
    for (size_t i = 0; i < g.size(); ++i) d[k] += g[i] * (yp.data[i] - ym.data[i]);
  }
  return d;
}

// Binarized weight: sign with zeros mapped to zero_to; scaled: times mean |W| of each output.
RefArray binarize(const RefArray& w, double zero_to, bool scaled, bool affine) {
  RefArray b = w;
  for (auto& v : b.data) v = v > 0 ? 1.0 : v < 0 ? -1.0 : zero_to;
  if (!scaled) return b;
  const size_t n = w.data.size(), outs = affine ? n / size_t(w.shape[0]) : size_t(w.shape[0]), per = n / outs;
  std::vector<double> alpha(outs, 0.0);
  for (size_t i = 0; i < n; ++i) alpha[affine ? i % outs : i / per] += std::fabs(w.data[i]) / double(per);
  for (size_t i = 0; i < n; ++i) b.data[i] *= alpha[affine ? i % outs : i / per];
  return b;
}

// One binarized layer: forward + true gradients via the tester, then binary_weight/alpha contents and the
// straight-through weight gradient (the gradient of the binarized weight, handed to the float weight).
void check_binary_layer(const char* type, bool scaled, bool affine, const nn::Attrs& attrs,
                        const conv_ref::ConvSpec& spec, const nn::Shape& xs, const nn::Shape& ws, bool bias,
                        double zero_to) {
  std::mt19937 rng(11);
  auto x = random_input(xs, rng), w = random_input(ws, rng);
  w.data[0] = 0.0;  // exercises quantize_zero_to
  const int64_t outs = affine ? ref_size(ws) / ws[0] : ws[0];
  std::vector<RefArray> in{x, w, RefArray{ws, std::vector<double>(size_t(ref_size(ws)), 7.0)}};
  if (scaled) in.push_back(RefArray{{outs}, std::vector<double>(size_t(outs), 7.0)});
  if (bias) in.push_back(random_input(affine ? nn::Shape(ws.begin() + 1, ws.end()) : nn::Shape{ws[0]}, rng));
  const size_t bias_index = scaled ? 4 : 3;
  auto layer = [=](const RefArray& xv, const RefArray& used, const RefArray* b) {
    return affine ? conv_ref::affine(xv, used, b, spec.base_axis) : conv_ref::convolution(xv, used, b, spec);
  };
  OpTestCase tc{type, attrs, in, [=](const RefInputs& v, const nn::Attrs&) {
                  const RefArray* b = v.size() > bias_index ? &v[bias_index] : nullptr;
                  return std::vector<RefArray>{layer(v[0], binarize(v[1], zero_to, scaled, affine), b)};
                }};
  tc.check_grad = std::vector<bool>(in.size(), false);
  tc.check_grad[0] = true;
  if (bias) tc.check_grad[bias_index] = true;
  run_op_test(tc);

  const RefArray used = binarize(w, zero_to, scaled, affine);
  const RefArray y = layer(x, used, bias ? &in[bias_index] : nullptr);
  auto g = random_vec(y.data.size(), rng);
  const auto dw = weight_grad(used, g, [&](const RefArray& u) { return layer(x, u, nullptr); });
  std::vector<bool> prop(in.size(), false);
  prop[1] = true;
  for (bool accum : {false, true}) {
    auto o = run_direct(type, attrs, in, g, prop, accum, 0.5f);
    const auto sign = binarize(w, zero_to, false, affine);
    for (size_t i = 0; i < sign.data.size(); ++i)
      EXPECT_EQ(o.data[2][i], float(sign.data[i])) << "binary_weight " << i;
    if (scaled) {
      for (int64_t j = 0; j < outs; ++j) {
        double a = 0;
        const size_t n = w.data.size(), per = n / size_t(outs);
        for (size_t i = 0; i < n; ++i)
          if (int64_t(affine ? i % size_t(outs) : i / per) == j) a += std::fabs(w.data[i]) / double(per);
        EXPECT_NEAR(o.data[3][size_t(j)], a, 1e-6) << "alpha " << j;
      }
    }
    for (size_t i = 0; i < dw.size(); ++i)
      EXPECT_NEAR(o.grad[1][i], (accum ? 0.5 : 0.0) + dw[i], 1e-4 + 1e-4 * std::fabs(dw[i]))
          << "weight grad " << i;
    EXPECT_EQ(o.grad[0][0], 0.5f) << "x grad must be untouched with propagate_down false";
  }
}
}  // namespace

TEST(BinarySigmoid, ForwardAndStraightThrough) { check_binary_activation("BinarySigmoid", 0.0, 0.5); }
TEST(BinaryTanh, ForwardAndStraightThrough) { check_binary_activation("BinaryTanh", -1.0, 1.0); }

TEST(BinaryConnectAffine, SignWeights) {
  check_binary_layer("BinaryConnectAffine", false, true, {}, {}, {3, 4}, {4, 5}, true, 1.0);
  check_binary_layer("BinaryConnectAffine", false, true, {{"base_axis", int64_t(2)}, {"quantize_zero_to", 0.0}},
                     {2}, {2, 3, 4}, {4, 2, 2}, false, 0.0);
}

TEST(BinaryConnectConvolution, SignWeights) {
  check_binary_layer("BinaryConnectConvolution", false, false, {{"pad", V{1, 1}}, {"stride", V{2, 1}}},
                     {1, V{1, 1}, V{2, 1}}, {2, 2, 5, 4}, {3, 2, 3, 3}, true, 1.0);
  check_binary_layer("BinaryConnectConvolution", false, false, {{"group", int64_t(2)}, {"quantize_zero_to", -1.0}},
                     {1, {}, {}, {}, 2}, {1, 4, 4, 4}, {2, 2, 2, 2}, false, -1.0);
}

TEST(BinaryWeightAffine, ScaledSignWeights) {
  check_binary_layer("BinaryWeightAffine", true, true, {}, {}, {3, 4}, {4, 5}, true, 1.0);
  check_binary_layer("BinaryWeightAffine", true, true, {{"quantize_zero_to", 0.0}}, {}, {2, 6}, {6, 2, 2}, true,
                     0.0);
}

TEST(BinaryWeightConvolution, ScaledSignWeights) {
  check_binary_layer("BinaryWeightConvolution", true, false, {{"dilation", V{2, 1}}}, {1, {}, {}, V{2, 1}},
                     {2, 2, 6, 4}, {3, 2, 2, 2}, true, 1.0);
}
