// Convolution (1-D, 2-D, 3-D; pad, stride, dilation, group, base_axis, bias) and DepthwiseConvolution.
#include <gtest/gtest.h>

#include <cmath>

#include "conv_reference.hpp"
#include "direct_run.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"

using namespace nn::test;
using V = std::vector<int64_t>;

namespace {
nn::Attrs conv_attrs(const conv_ref::ConvSpec& s) {
  nn::Attrs a{{"base_axis", s.base_axis}, {"group", s.group}};
  if (!s.pad.empty()) a.set("pad", s.pad);
  if (!s.stride.empty()) a.set("stride", s.stride);
  if (!s.dilation.empty()) a.set("dilation", s.dilation);
  return a;
}
void run_conv(const conv_ref::ConvSpec& s, const nn::Shape& x, const nn::Shape& w, bool bias, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<RefArray> in{random_input(x, rng), random_input(w, rng)};
  if (bias) in.push_back(random_input({w[0]}, rng));
  run_op_test({"Convolution", conv_attrs(s), in, [s](const RefInputs& v, const nn::Attrs&) {
                 return std::vector<RefArray>{
                     conv_ref::convolution(v[0], v[1], v.size() > 2 ? &v[2] : nullptr, s)};
               }});
}
}  // namespace

TEST(Convolution, Basic2D) {
  run_conv({}, {2, 3, 5, 5}, {4, 3, 3, 3}, true, 1);
  run_conv({}, {1, 2, 4, 6}, {3, 2, 2, 3}, false, 2);
}

TEST(Convolution, PadStrideDilation2D) {
  run_conv({1, V{1, 2}, V{2, 1}, V{1, 1}, 1}, {2, 2, 6, 5}, {3, 2, 3, 3}, true, 3);
  run_conv({1, V{2, 1}, V{1, 2}, V{2, 2}, 1}, {1, 2, 6, 7}, {2, 2, 3, 2}, true, 4);
}

TEST(Convolution, Group) {
  run_conv({1, V{1, 1}, {}, {}, 2}, {2, 4, 4, 4}, {6, 2, 3, 3}, true, 5);
  run_conv({1, {}, V{2, 2}, {}, 3}, {1, 3, 5, 5}, {3, 1, 2, 2}, false, 6);
}

TEST(Convolution, OneByOne) {  // the identity-column path (no im2col)
  run_conv({}, {2, 3, 3, 4}, {5, 3, 1, 1}, true, 7);
  run_conv({1, {}, {}, {}, 3}, {2, 6, 2, 3}, {3, 2, 1, 1}, false, 8);
}

TEST(Convolution, OneDAndThreeD) {
  run_conv({1, V{1}, V{2}, V{1}, 1}, {2, 2, 9}, {3, 2, 3}, true, 9);
  run_conv({1, V{1, 0, 1}, V{1, 2, 1}, {}, 1}, {1, 2, 3, 4, 3}, {2, 2, 2, 2, 2}, true, 10);
}

// Four or more input channels per group: the oneDNN path when nncli is built with it.
TEST(Convolution, WideChannels) {
  run_conv({}, {2, 8, 5, 5}, {4, 8, 3, 3}, true, 21);
  run_conv({1, V{1, 2}, V{2, 1}, V{2, 1}, 1}, {2, 4, 7, 6}, {5, 4, 3, 2}, true, 22);
  run_conv({1, V{0, 1}, V{2, 3}, {}, 2}, {1, 8, 6, 7}, {4, 4, 2, 2}, false, 23);  // floor leaves a tail
  run_conv({1, V{1}, V{2}, V{2}, 1}, {2, 4, 11}, {3, 4, 3}, true, 24);
  run_conv({1, V{1, 0, 1}, V{1, 2, 1}, {}, 1}, {1, 4, 3, 4, 3}, {2, 4, 2, 2, 2}, true, 25);
  run_conv({2, {}, {}, {}, 1}, {2, 1, 4, 3, 3}, {2, 4, 1, 1}, true, 26);
}

TEST(Convolution, BaseAxis) {
  run_conv({2, V{1, 1}, {}, {}, 1}, {2, 2, 2, 4, 4}, {3, 2, 3, 3}, true, 11);
  run_conv({0, {}, {}, {}, 1}, {2, 5, 5}, {3, 2, 2, 2}, true, 12);
}

TEST(Convolution, BatchThreadedPathMatchesPerSample) {
  // Large enough for the engine to thread the batch (given more than one thread): the forward is checked
  // against the reference, the gradients against the same op run one sample at a time (sequential path).
  std::mt19937 rng(13);
  const nn::Shape xs{6, 8, 12, 12}, ws{16, 8, 3, 3};
  conv_ref::ConvSpec s{1, V{1, 1}, {}, {}, 1};
  auto x = random_input(xs, rng), w = random_input(ws, rng), b = random_input({16}, rng);
  OpTestCase tc{"Convolution", conv_attrs(s), {x, w, b}, [s](const RefInputs& v, const nn::Attrs&) {
                  return std::vector<RefArray>{conv_ref::convolution(v[0], v[1], &v[2], s)};
                }};
  tc.check_backward = false;
  run_op_test(tc);
  const int64_t per_x = ref_size(xs) / 6, per_y = 16 * 12 * 12;
  std::vector<double> g(size_t(6 * per_y));
  for (auto& e : g) e = std::uniform_real_distribution<double>(-1, 1)(rng);
  auto all = run_direct("Convolution", conv_attrs(s), {x, w, b}, g, {true, true, true}, false, 0.f);
  std::vector<double> dw(w.data.size(), 0.0), db(16, 0.0);
  for (int64_t n = 0; n < 6; ++n) {
    RefArray xn{{1, 8, 12, 12}, std::vector<double>(x.data.begin() + n * per_x, x.data.begin() + (n + 1) * per_x)};
    std::vector<double> gn(g.begin() + n * per_y, g.begin() + (n + 1) * per_y);
    auto one = run_direct("Convolution", conv_attrs(s), {xn, w, b}, gn, {true, true, true}, false, 0.f);
    for (int64_t i = 0; i < per_x; ++i)
      ASSERT_NEAR(all.grad[0][size_t(n * per_x + i)], one.grad[0][size_t(i)], 1e-4) << "dx " << n << " " << i;
    for (size_t i = 0; i < dw.size(); ++i) dw[i] += one.grad[1][i];
    for (size_t i = 0; i < 16; ++i) db[i] += one.grad[2][i];
  }
  for (size_t i = 0; i < dw.size(); ++i)
    ASSERT_NEAR(all.grad[1][i], dw[i], 1e-3 + 1e-4 * std::fabs(dw[i])) << "dw " << i;
  for (size_t i = 0; i < 16; ++i) ASSERT_NEAR(all.grad[2][i], db[i], 1e-3) << "db " << i;
}

TEST(Convolution, Errors) {
  auto& reg = nn::OpRegistry::instance();
  auto x = nn::Variable::create({1, 3, 5, 5}), w = nn::Variable::create({4, 2, 3, 3}), y = nn::Variable::create();
  auto f = reg.create("Convolution", {}, nn::cpu_context());
  EXPECT_THROW(f->setup({x.get(), w.get()}, {y.get()}), nn::Error);  // channel mismatch
  auto w3 = nn::Variable::create({4, 3, 3, 3});
  auto g = reg.create("Convolution", {{"channel_last", true}}, nn::cpu_context());
  EXPECT_THROW(g->setup({x.get(), w3.get()}, {y.get()}), nn::Error);
  auto h = reg.create("Convolution", {{"pad", V{1}}}, nn::cpu_context());
  EXPECT_THROW(h->setup({x.get(), w3.get()}, {y.get()}), nn::Error);  // pad length
}

namespace {
// Depthwise: the weight (C*m, k...) is a grouped convolution with group C and weight (C*m, 1, k...).
void run_depthwise(int64_t multiplier, const V& pad, const V& stride, const V& dilation, const nn::Shape& x,
                   const nn::Shape& k, bool bias, uint32_t seed) {
  std::mt19937 rng(seed);
  const int64_t c = x[1];
  nn::Shape w{c * multiplier};
  w.insert(w.end(), k.begin(), k.end());
  std::vector<RefArray> in{random_input(x, rng), random_input(w, rng)};
  if (bias) in.push_back(random_input({c * multiplier}, rng));
  nn::Attrs a{{"multiplier", multiplier}};
  if (!pad.empty()) a.set("pad", pad);
  if (!stride.empty()) a.set("stride", stride);
  if (!dilation.empty()) a.set("dilation", dilation);
  conv_ref::ConvSpec s{1, pad, stride, dilation, c};
  run_op_test({"DepthwiseConvolution", a, in, [s](const RefInputs& v, const nn::Attrs&) {
                 RefArray w4 = v[1];
                 w4.shape.insert(w4.shape.begin() + 1, 1);
                 return std::vector<RefArray>{conv_ref::convolution(v[0], w4, v.size() > 2 ? &v[2] : nullptr, s)};
               }});
}
}  // namespace

TEST(DepthwiseConvolution, MultiplierPadStride) {
  run_depthwise(1, {}, {}, {}, {2, 3, 5, 5}, {3, 3}, true, 21);
  run_depthwise(2, V{1, 1}, V{2, 1}, {}, {2, 2, 5, 4}, {3, 2}, true, 22);
  run_depthwise(3, V{1, 0}, {}, V{2, 1}, {1, 2, 6, 4}, {2, 2}, false, 23);
  run_depthwise(2, V{1}, V{1}, {}, {2, 2, 7}, {3}, true, 24);  // 1-D
}
