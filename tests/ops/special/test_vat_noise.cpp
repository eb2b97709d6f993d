// VATNoise: forward against eps * x / sqrt(sum x^2 + 1e-8) per sample; backward writes eps * dy into w.
#include <gtest/gtest.h>

#include <cmath>

#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {
Reference vat_ref(int64_t base_axis, double eps) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    RefArray y{in[0].shape, in[0].data};
    int64_t row = 1;
    for (size_t d = size_t(base_axis); d < y.shape.size(); ++d) row *= y.shape[d];
    for (int64_t r = 0; r < ref_size(y.shape) / row; ++r) {
      double s = 1e-8;
      for (int64_t k = 0; k < row; ++k) s += y.data[size_t(r * row + k)] * y.data[size_t(r * row + k)];
      for (int64_t k = 0; k < row; ++k) y.data[size_t(r * row + k)] *= eps / std::sqrt(s);
    }
    return std::vector<RefArray>{y};
  };
}
}  // namespace

TEST(VATNoise, NormalisesPerSample) {
  for (int64_t base_axis : {1, 2}) {
    std::mt19937 rng(static_cast<uint32_t>(base_axis));
    OpTestCase tc{"VATNoise",
                  {{"base_axis", base_axis}, {"eps", 2.5}},
                  {random_input({2, 3, 4}, rng), random_input({2, 3, 4}, rng)},
                  vat_ref(base_axis, 2.5)};
    tc.check_backward = false;  // the backward writes w's data, not a gradient; checked below
    run_op_test(tc);
  }
}

TEST(VATNoise, BackwardStoresScaledGradIntoW) {
  auto f = nn::OpRegistry::instance().create("VATNoise", {{"eps", 3.0}}, nn::cpu_context());
  auto x = nn::Variable::create({2, 3}, true), w = nn::Variable::create({2, 3}, false), y = nn::Variable::create();
  x->data()->fill(1.0);
  w->data()->fill(0.0);
  f->setup({x.get(), w.get()}, {y.get()});
  f->forward({x.get(), w.get()}, {y.get()});
  y->grad()->fill(0.5);
  f->backward({x.get(), w.get()}, {y.get()}, {true, false}, {false, false});
  for (float v : w->data()->to_vector()) EXPECT_FLOAT_EQ(v, 1.5f);
}
