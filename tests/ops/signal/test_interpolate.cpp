// Interpolate (linear / nearest, 1-D to 3-D) against a separable double reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "op_tester.hpp"

using namespace nn::test;

namespace {

struct Taps {
  int64_t lo, hi;
  double w;  // weight of hi
};

Taps taps(int64_t isz, int64_t osz, int64_t o, bool linear, bool align, bool half, bool half_nn) {
  double s = osz <= 1 ? 0.0 : align ? double(isz - 1) / double(osz - 1) : double(isz) / double(osz);
  if (!linear && half_nn) s = double(isz) / double(osz);
  double f = (!linear && half_nn) ? s * (o + 0.5) : half ? std::max(0.0, s * (o + 0.5) - 0.5) : s * o;
  int64_t lo = std::min<int64_t>(int64_t(f), isz - 1);
  if (!linear) return {lo, lo, 0.0};
  return {lo, std::min<int64_t>(lo + 1, isz - 1), f - std::floor(f)};
}

Reference interp_ref(std::vector<int64_t> out_size, bool linear, bool align, bool half, bool half_nn) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    const auto& xs = in[0].shape;
    const size_t nd = out_size.size(), off = xs.size() - nd;
    nn::Shape ys = xs;
    std::vector<int64_t> isz(xs.begin() + off, xs.end());
    for (size_t d = 0; d < nd; ++d) ys[off + d] = out_size[d];
    RefArray y{ys, std::vector<double>(size_t(ref_size(ys)), 0.0)};
    int64_t ib = 1, ob = 1;
    for (size_t d = 0; d < nd; ++d) ib *= isz[d], ob *= out_size[d];
    for (int64_t n = 0; n < ref_size(xs) / ib; ++n) {
      for (int64_t k = 0; k < ob; ++k) {
        std::vector<int64_t> o(nd);
        int64_t r = k;
        for (int d = int(nd) - 1; d >= 0; --d) o[d] = r % out_size[d], r /= out_size[d];
        double acc = 0;
        for (int c = 0; c < (1 << nd); ++c) {
          double w = 1;
          int64_t src = 0;
          for (size_t d = 0; d < nd; ++d) {
            Taps t = taps(isz[d], out_size[d], o[d], linear, align, half, half_nn);
            bool second = (c >> (nd - 1 - d)) & 1;
            w *= second ? t.w : 1 - t.w;
            src = src * isz[d] + (second ? t.hi : t.lo);
          }
          acc += w * in[0].data[size_t(n * ib + src)];
        }
        y.data[size_t(n * ob + k)] = acc;
      }
    }
    return std::vector<RefArray>{y};
  };
}

void run(const nn::Shape& xs, std::vector<int64_t> out, const std::string& mode, bool align, bool half,
         bool half_nn, uint32_t seed) {
  std::mt19937 rng(seed);
  nn::Attrs a{{"output_size", out},
              {"mode", mode},
              {"align_corners", align},
              {"half_pixel", half},
              {"half_pixel_for_nn", half_nn}};
  run_op_test(
      {"Interpolate", a, {random_input(xs, rng)}, interp_ref(out, mode == "linear", align, half, half_nn)});
}

}  // namespace

TEST(Interpolate, Linear1D) {
  run({2, 5}, {8}, "linear", true, false, false, 1);
  run({2, 5}, {3}, "linear", false, false, false, 2);
  run({1, 2, 4}, {7}, "linear", false, true, false, 3);
}

TEST(Interpolate, Linear2D) {
  run({1, 2, 3, 4}, {5, 6}, "linear", true, false, false, 4);
  run({1, 2, 4, 3}, {2, 5}, "linear", false, true, false, 5);
  run({1, 1, 3, 3}, {1, 4}, "linear", false, false, false, 6);
}

TEST(Interpolate, Linear3D) { run({1, 2, 2, 3, 2}, {3, 4, 3}, "linear", true, false, false, 7); }

TEST(Interpolate, Nearest) {
  run({1, 2, 4, 4}, {8, 2}, "nearest", false, false, false, 8);
  run({1, 2, 4, 4}, {8, 2}, "nearest", false, false, true, 9);
  run({2, 4}, {8}, "nearest", false, true, false, 10);
  run({1, 1, 2, 2, 4}, {4, 4, 2}, "nearest", false, false, true, 11);
}
