// PatchCorrelation against a direct double sum over patches, shifts and channels (zero outside the image).
#include <gtest/gtest.h>

#include "op_tester.hpp"

using namespace nn::test;

namespace {
struct PcArgs {
  std::vector<int64_t> patch, shift, patch_step, shift_step, padding;
};

Reference pc_ref(const PcArgs& a) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    const auto& s = in[0].shape;
    const int64_t n = s[0], h = s[1], w = s[2], c = s[3];
    auto at = [&](const RefArray& v, int64_t b, int64_t y, int64_t x, int64_t k) {
      return (y < 0 || y >= h || x < 0 || x >= w) ? 0.0 : v.data[size_t(((b * h + y) * w + x) * c + k)];
    };
    std::vector<double> out;
    int64_t oh = 0, ow = 0, sh = 0, sw = 0;
    for (int64_t b = 0; b < n; ++b) {
      oh = 0;
      for (int64_t y = -a.padding[0]; y + a.patch[0] <= h + a.padding[1]; y += a.patch_step[0], ++oh) {
        ow = 0;
        for (int64_t x = -a.padding[2]; x + a.patch[1] <= w + a.padding[3]; x += a.patch_step[1], ++ow) {
          sh = 0;
          for (int64_t dy = -a.shift[0]; dy <= a.shift[0]; dy += a.shift_step[0], ++sh) {
            sw = 0;
            for (int64_t dx = -a.shift[1]; dx <= a.shift[1]; dx += a.shift_step[1], ++sw) {
              double v = 0;
              for (int64_t ky = 0; ky < a.patch[0]; ++ky)
                for (int64_t kx = 0; kx < a.patch[1]; ++kx)
                  for (int64_t k = 0; k < c; ++k)
                    v += at(in[0], b, y + ky, x + kx, k) * at(in[1], b, y + dy + ky, x + dx + kx, k);
              out.push_back(v);
            }
          }
        }
      }
    }
    return std::vector<RefArray>{{{n, oh, ow, sh, sw}, out}};
  };
}
}  // namespace

TEST(PatchCorrelation, MatchesDirectSum) {
  const PcArgs cases[] = {{{1, 1}, {0, 0}, {1, 1}, {1, 1}, {0, 0, 0, 0}},
                          {{2, 2}, {1, 1}, {1, 1}, {1, 1}, {1, 0, 0, 1}},
                          {{1, 2}, {2, 1}, {2, 1}, {2, 1}, {0, 1, 1, 0}}};
  uint32_t seed = 1;
  for (const auto& a : cases) {
    std::mt19937 rng(seed++);
    nn::Attrs attrs{{"patch", a.patch},
                    {"shift", a.shift},
                    {"patch_step", a.patch_step},
                    {"shift_step", a.shift_step},
                    {"padding", a.padding}};
    run_op_test({"PatchCorrelation",
                 attrs,
                 {random_input({1, 4, 3, 2}, rng), random_input({1, 4, 3, 2}, rng)},
                 pc_ref(a)});
  }
}
