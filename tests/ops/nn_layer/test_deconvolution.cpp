// Deconvolution: pad, stride, dilation, group, output_padding, bias, 1-D and 2-D.
#include <gtest/gtest.h>

#include "conv_reference.hpp"

using namespace nn::test;
using V = std::vector<int64_t>;

namespace {
void run_deconv(const conv_ref::ConvSpec& s, const V& output_padding, const nn::Shape& x, const nn::Shape& w,
                bool bias, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<RefArray> in{random_input(x, rng), random_input(w, rng)};
  if (bias) in.push_back(random_input({w[1] * s.group}, rng));
  nn::Attrs a{{"base_axis", s.base_axis}, {"group", s.group}};
  if (!s.pad.empty()) a.set("pad", s.pad);
  if (!s.stride.empty()) a.set("stride", s.stride);
  if (!s.dilation.empty()) a.set("dilation", s.dilation);
  if (!output_padding.empty()) a.set("output_padding", output_padding);
  run_op_test({"Deconvolution", a, in, [s, output_padding](const RefInputs& v, const nn::Attrs&) {
                 return std::vector<RefArray>{
                     conv_ref::deconvolution(v[0], v[1], v.size() > 2 ? &v[2] : nullptr, s, output_padding)};
               }});
}
}  // namespace

TEST(Deconvolution, Basic) {
  run_deconv({}, {}, {2, 3, 3, 3}, {3, 2, 3, 3}, true, 1);
  run_deconv({}, {}, {1, 2, 4, 3}, {2, 3, 2, 2}, false, 2);
}

TEST(Deconvolution, PadStrideDilationOutputPadding) {
  run_deconv({1, V{1, 0}, V{2, 2}, {}, 1}, V{1, 1}, {2, 2, 3, 3}, {2, 3, 3, 2}, true, 3);
  run_deconv({1, V{1, 1}, V{2, 1}, V{1, 2}, 1}, V{1, 0}, {1, 2, 3, 4}, {2, 2, 3, 2}, true, 4);
}

// Four or more output channels per group: the oneDNN path when nncli is built with it.
TEST(Deconvolution, WideChannels) {
  run_deconv({1, V{1, 1}, V{2, 2}, {}, 1}, {}, {2, 3, 3, 3}, {3, 4, 3, 3}, true, 21);
  run_deconv({1, V{1, 0}, V{2, 1}, V{1, 2}, 2}, V{1, 0}, {1, 4, 3, 4}, {4, 4, 3, 2}, true, 22);
}

TEST(Deconvolution, GroupAndOneD) {
  run_deconv({1, V{1, 1}, V{2, 2}, {}, 2}, {}, {2, 4, 3, 3}, {4, 3, 2, 2}, true, 5);
  run_deconv({1, V{1}, V{3}, V{1}, 1}, V{2}, {2, 3, 4}, {3, 2, 3}, true, 6);
}
