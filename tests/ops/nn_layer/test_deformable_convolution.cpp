// DeformableConvolution (2-D, grouped, deformable groups, optional mask and bias) against a double reference.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "nn/core/error.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {

struct DeformSpec {
  int64_t pad_h = 0, pad_w = 0, stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  int64_t group = 1, deformable_group = 1;
  bool mask = false, bias = false;
};

// Bilinear value of plane (H, W) at (h, w) as a sum of tent weights over the integer points of the plane:
// points outside contribute nothing, so sampling beyond the border fades to zero.
double tent_sample(const double* plane, int64_t height, int64_t width, double h, double w) {
  double v = 0;
  for (int64_t y = int64_t(std::floor(h)); y <= int64_t(std::floor(h)) + 1; ++y)
    for (int64_t x = int64_t(std::floor(w)); x <= int64_t(std::floor(w)) + 1; ++x) {
      if (y < 0 || y >= height || x < 0 || x >= width) continue;
      v += std::max(0.0, 1 - std::fabs(h - double(y))) * std::max(0.0, 1 - std::fabs(w - double(x))) *
           plane[y * width + x];
    }
  return v;
}

// Inputs: x (N, C, H, W), weight (OC, C/group, KH, KW), offset (N, 2*dg*KH*KW, H, W), [mask (N, dg*KH*KW, H,
// W)], [bias (OC)]. Offset channel 2*(d*K + k) moves tap k of deformable group d vertically, the next one
// horizontally; both are read on the input grid at (oh * stride_h, ow * stride_w).
Reference deform_ref(DeformSpec s) {
  return [s](const RefInputs& in, const nn::Attrs&) {
    const auto &x = in[0], &w = in[1], &off = in[2];
    const RefArray* mask = s.mask ? &in[3] : nullptr;
    const RefArray* bias = s.bias ? &in[s.mask ? 4 : 3] : nullptr;
    const int64_t n_batch = x.shape[0], c = x.shape[1], h = x.shape[2], wd = x.shape[3];
    const int64_t oc = w.shape[0], cg = w.shape[1], kh = w.shape[2], kw = w.shape[3];
    const int64_t oh = (h + 2 * s.pad_h - s.dil_h * (kh - 1) - 1) / s.stride_h + 1;
    const int64_t ow = (wd + 2 * s.pad_w - s.dil_w * (kw - 1) - 1) / s.stride_w + 1;
    const int64_t k_count = kh * kw, channels_per_dg = c / s.deformable_group, ocg = oc / s.group;
    RefArray y{{n_batch, oc, oh, ow}, std::vector<double>(size_t(n_batch * oc * oh * ow), 0.0)};
    auto grid = [&](const RefArray& a, int64_t n, int64_t channel, int64_t gy, int64_t gx) {
      return a.data[size_t(((n * a.shape[1] + channel) * h + gy) * wd + gx)];
    };
    for (int64_t n = 0; n < n_batch; ++n)
      for (int64_t o = 0; o < oc; ++o)
        for (int64_t py = 0; py < oh; ++py)
          for (int64_t px = 0; px < ow; ++px) {
            const int64_t gy = py * s.stride_h, gx = px * s.stride_w;
            double acc = bias ? bias->data[size_t(o)] : 0.0;
            for (int64_t ci = 0; ci < cg; ++ci) {
              const int64_t channel = (o / ocg) * cg + ci, d = channel / channels_per_dg;
              const double* plane = x.data.data() + (n * c + channel) * h * wd;
              for (int64_t i = 0; i < kh; ++i)
                for (int64_t j = 0; j < kw; ++j) {
                  const int64_t k = i * kw + j;
                  const double sy =
                      double(gy - s.pad_h + i * s.dil_h) + grid(off, n, 2 * (d * k_count + k), gy, gx);
                  const double sx =
                      double(gx - s.pad_w + j * s.dil_w) + grid(off, n, 2 * (d * k_count + k) + 1, gy, gx);
                  double v = tent_sample(plane, h, wd, sy, sx);
                  if (mask) v *= grid(*mask, n, d * k_count + k, gy, gx);
                  acc += w.data[size_t(((o * cg + ci) * kh + i) * kw + j)] * v;
                }
            }
            y.data[size_t(((n * oc + o) * oh + py) * ow + px)] = acc;
          }
    return std::vector<RefArray>{y};
  };
}

nn::Attrs deform_attrs(const DeformSpec& s) {
  return {{"pad", std::vector<int64_t>{s.pad_h, s.pad_w}},
          {"stride", std::vector<int64_t>{s.stride_h, s.stride_w}},
          {"dilation", std::vector<int64_t>{s.dil_h, s.dil_w}},
          {"group", s.group},
          {"deformable_group", s.deformable_group}};
}

void run(const nn::Shape& xs, int64_t oc, int64_t kh, int64_t kw, const DeformSpec& s, uint32_t seed) {
  std::mt19937 rng(seed);
  const int64_t n = xs[0], c = xs[1], h = xs[2], w = xs[3], taps = s.deformable_group * kh * kw;
  std::vector<RefArray> inputs{random_input(xs, rng), random_input({oc, c / s.group, kh, kw}, rng),
                               // Sample positions are integers plus the offset: keep offsets off integers,
                               // where bilinear sampling has kinks the central difference would straddle.
                               random_input({n, 2 * taps, h, w}, rng, -2.0, 2.0, {-2, -1, 0, 1, 2}, 0.02)};
  if (s.mask) inputs.push_back(random_input({n, taps, h, w}, rng, 0.0, 1.0));
  if (s.bias) inputs.push_back(random_input({oc}, rng));
  run_op_test({"DeformableConvolution", deform_attrs(s), inputs, deform_ref(s)});
}

}  // namespace

TEST(DeformableConvolution, Plain) {
  run({1, 2, 4, 5}, 3, 3, 3, {}, 1);
  DeformSpec padded;
  padded.pad_h = padded.pad_w = 1;
  padded.bias = true;
  run({2, 2, 4, 4}, 2, 3, 3, padded, 2);
}

TEST(DeformableConvolution, Modulated) {
  DeformSpec s;
  s.pad_h = s.pad_w = 1;
  s.mask = true;
  run({1, 2, 4, 4}, 2, 3, 3, s, 3);
  s.bias = true;
  s.pad_w = 0;  // upstream rejects a mask when both pads put the kernel centre in the padding
  s.stride_h = 2;
  s.dil_w = 2;
  run({2, 1, 5, 5}, 2, 2, 2, s, 4);
}

TEST(DeformableConvolution, GroupsAndDeformableGroups) {
  DeformSpec s;
  s.group = 2;
  s.deformable_group = 2;
  s.pad_h = 1;
  s.mask = true;
  s.bias = true;
  run({1, 4, 4, 3}, 4, 3, 2, s, 5);
  DeformSpec g;
  g.deformable_group = 2;
  g.stride_w = 2;
  run({1, 2, 3, 5}, 2, 2, 3, g, 6);
}

TEST(DeformableConvolution, RejectsBadShapes) {
  auto expect_setup_error = [](const std::vector<nn::Shape>& shapes, const DeformSpec& s) {
    auto f = nn::OpRegistry::instance().create("DeformableConvolution", deform_attrs(s), nn::cpu_context());
    std::vector<nn::VariablePtr> vars;
    nn::Variables raw;
    for (const auto& shape : shapes)
      vars.push_back(nn::Variable::create(shape, false)), raw.push_back(vars.back().get());
    auto y = nn::Variable::create();
    EXPECT_THROW(f->setup(raw, {y.get()}), nn::Error);
  };
  DeformSpec s;
  expect_setup_error({{1, 2, 4, 4}, {3, 2, 3, 3}, {1, 17, 4, 4}}, s);                // offset channels
  expect_setup_error({{1, 2, 4, 4}, {3, 2, 3, 3}, {1, 18, 2, 2}}, s);                // offset grid
  expect_setup_error({{1, 2, 4, 4}, {3, 2, 3, 3}, {1, 18, 4, 4}, {1, 8, 4, 4}}, s);  // mask channels
  expect_setup_error({{1, 2, 4, 4}, {3, 2, 3, 3}, {1, 18, 4, 4}, {2}}, s);           // bias size
  expect_setup_error({{1, 2, 4, 4, 4}, {3, 2, 3, 3, 3}, {1, 54, 4, 4, 4}}, s);       // 3-D
}
