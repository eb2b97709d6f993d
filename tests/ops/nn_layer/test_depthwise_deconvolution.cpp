// DepthwiseDeconvolution: divisor 1 and 2, pad/stride/dilation, bias, 1-D and
// 2-D, bad divisor.
#include <gtest/gtest.h>

#include "conv_reference.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"

using namespace nn::test;
using V = std::vector<int64_t>;

namespace {
// Direct scatter: y[c / divisor, q * stride - pad + k * dilation] += x[c, q] *
// w[c, k], per sample.
RefArray depthwise_deconv(const RefArray& x, const RefArray& w, const RefArray* b, const V& pad, const V& stride,
                          const V& dilation, int64_t divisor) {
  const size_t nd = w.shape.size() - 1;
  const int64_t C = x.shape[1], OC = C / divisor;
  nn::Shape in(x.shape.begin() + 2, x.shape.end()), k(w.shape.begin() + 1, w.shape.end()), out;
  for (size_t d = 0; d < nd; ++d)
    out.push_back(stride[d] * (in[d] - 1) + dilation[d] * (k[d] - 1) + 1 - 2 * pad[d]);
  nn::Shape ys{x.shape[0], OC};
  ys.insert(ys.end(), out.begin(), out.end());
  RefArray y{ys, std::vector<double>(size_t(ref_size(ys)), 0.0)};
  const int64_t in_size = ref_size(in), out_size = ref_size(out), k_size = ref_size(k);
  for (int64_t n = 0; n < x.shape[0]; ++n)
    for (int64_t c = 0; c < C; ++c) {
      std::vector<int64_t> q(nd, 0);
      do {
        std::vector<int64_t> kk(nd, 0);
        do {
          std::vector<int64_t> p(nd);
          bool inside = true;
          for (size_t d = 0; d < nd; ++d) {
            p[d] = q[d] * stride[d] - pad[d] + kk[d] * dilation[d];
            inside &= p[d] >= 0 && p[d] < out[d];
          }
          if (!inside) continue;
          y.data[size_t((n * OC + c / divisor) * out_size + conv_ref::flat(out, p))] +=
              x.data[size_t((n * C + c) * in_size + conv_ref::flat(in, q))] *
              w.data[size_t(c * k_size + conv_ref::flat(k, kk))];
        } while (conv_ref::next(kk, k));
      } while (conv_ref::next(q, in));
    }
  if (b)
    for (int64_t n = 0; n < x.shape[0]; ++n)
      for (int64_t o = 0; o < OC; ++o)
        for (int64_t i = 0; i < out_size; ++i) y.data[size_t((n * OC + o) * out_size + i)] += b->data[size_t(o)];
  return y;
}

void run(const nn::Shape& x, const nn::Shape& w, V pad, V stride, V dilation, int64_t divisor, bool bias,
         uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<RefArray> in{random_input(x, rng), random_input(w, rng)};
  if (bias) in.push_back(random_input({x[1] / divisor}, rng));
  nn::Attrs a{{"divisor", divisor}};
  const size_t nd = w.size() - 1;
  if (!pad.empty()) a.set("pad", pad);
  if (!stride.empty()) a.set("stride", stride);
  if (!dilation.empty()) a.set("dilation", dilation);
  if (pad.empty()) pad.assign(nd, 0);
  if (stride.empty()) stride.assign(nd, 1);
  if (dilation.empty()) dilation.assign(nd, 1);
  run_op_test({"DepthwiseDeconvolution", a, in, [=](const RefInputs& v, const nn::Attrs&) {
                 return std::vector<RefArray>{
                     depthwise_deconv(v[0], v[1], v.size() > 2 ? &v[2] : nullptr, pad, stride, dilation, divisor)};
               }});
}
}  // namespace

TEST(DepthwiseDeconvolution, Basic) {
  run({2, 3, 3, 3}, {3, 2, 2}, {}, {}, {}, 1, true, 1);
  run({1, 4, 3, 2}, {4, 3, 2}, {}, {}, {}, 2, false, 2);
}

TEST(DepthwiseDeconvolution, PadStrideDilation) {
  run({2, 4, 3, 3}, {4, 3, 3}, V{1, 1}, V{2, 2}, V{1, 1}, 2, true, 3);
  run({1, 2, 3, 4}, {2, 2, 3}, V{1, 0}, V{2, 1}, V{1, 2}, 1, true, 4);
  run({2, 4, 5}, {4, 3}, V{1}, V{2}, V{2}, 4, true, 5);
}

TEST(DepthwiseDeconvolution, RejectsBadDivisor) {
  auto f =
      nn::OpRegistry::instance().create("DepthwiseDeconvolution", {{"divisor", int64_t(2)}}, nn::cpu_context());
  auto x = nn::Variable::create({1, 3, 4, 4}), w = nn::Variable::create({3, 2, 2}), y = nn::Variable::create();
  EXPECT_THROW(f->setup({x.get(), w.get()}, {y.get()}), nn::Error);
}
