// ImageAugmentation on the GPU against the CPU kernel with the same seed: the draws are the CPU's, so the
// images must agree up to the rounding of the sampling positions (the CPU steps them along rows).
#include "gpu_compare.hpp"

namespace nn::gpu_test {
namespace {

using Ints = std::vector<int64_t>;

GpuCase augment(Attrs attrs, Shape shape) {
  attrs.set("seed", int64_t(7));
  GpuCase c{"ImageAugmentation", attrs, {shape}};
  c.lo = 0.f;
  c.hi = 1.f;
  c.rtol = 1e-3;
  c.atol = 1e-3;
  return c;
}

TEST(GpuAugmentation, GeometryMatchesCpu) {
  NN_SKIP_WITHOUT_GPU();
  compare_with_cpu(augment({}, {2, 3, 8, 9}));  // defaults: identity
  compare_with_cpu(augment({{"shape", Ints{3, 6, 5}}, {"pad", Ints{2, 1}}}, {4, 3, 8, 9}));
  compare_with_cpu(
      augment({{"min_scale", 0.7}, {"max_scale", 1.4}, {"angle", 0.5}, {"aspect_ratio", 1.3}}, {3, 2, 12, 10}));
  compare_with_cpu(augment({{"flip_lr", true}, {"flip_ud", true}}, {5, 1, 6, 7}));
  compare_with_cpu(augment({{"distortion", 0.3}, {"angle", 0.2}}, {2, 3, 11, 11}));
  compare_with_cpu(augment({}, {6, 5}));  // a single 2-D image
}

TEST(GpuAugmentation, PhotometricAndNoiseMatchCpu) {
  NN_SKIP_WITHOUT_GPU();
  compare_with_cpu(augment({{"brightness", 0.2}, {"contrast", 1.5}, {"contrast_center", 0.5}}, {3, 3, 6, 6}));
  compare_with_cpu(augment(
      {{"brightness", 0.2}, {"brightness_each", true}, {"contrast", 1.5}, {"contrast_each", true}}, {3, 3, 6, 6}));
  compare_with_cpu(augment({{"noise", 0.1}, {"angle", 0.3}}, {4, 2, 7, 5}));
}

}  // namespace
}  // namespace nn::gpu_test
