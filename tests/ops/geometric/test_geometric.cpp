// AffineGrid, WarpByGrid and WarpByFlow against double references.
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"

using namespace nn::test;

namespace {

double target_coord(int64_t i, int64_t S, bool align) {
  double v = S > 1 ? 2.0 * double(i) / double(S - 1) - 1.0 : 0.0;
  return align ? v : v * double(S - 1) / double(S);
}

Reference affine_grid_ref(std::vector<int64_t> size, bool align) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    const int64_t B = in[0].shape[0], nd = int64_t(size.size()), k = nd + 1;
    nn::Shape gs{B};
    gs.insert(gs.end(), size.begin(), size.end());
    gs.push_back(nd);
    RefArray g{gs, std::vector<double>(size_t(ref_size(gs)))};
    int64_t pts = 1;
    for (auto s : size) pts *= s;
    for (int64_t b = 0; b < B; ++b)
      for (int64_t p = 0; p < pts; ++p) {
        std::vector<double> t(size_t(k), 1.0);
        int64_t rest = p;
        for (int64_t d = nd - 1; d >= 0; --d) {
          t[size_t(nd - 1 - d)] = target_coord(rest % size[d], size[d], align);
          rest /= size[d];
        }
        for (int64_t r = 0; r < nd; ++r) {
          double acc = 0;
          for (int64_t c = 0; c < k; ++c) acc += in[0].data[size_t((b * nd + r) * k + c)] * t[size_t(c)];
          g.data[size_t((b * pts + p) * nd + r)] = acc;
        }
      }
    return std::vector<RefArray>{g};
  };
}

double reflect_ref(double s, double lo, double hi) {
  while (s < lo || s > hi) s = s < lo ? 2 * lo - s : 2 * hi - s;
  return s;
}

double source(double g, int64_t S, const std::string& pad, bool align) {
  double s = align ? (g + 1) * (S - 1) / 2 : ((g + 1) * S - 1) / 2;
  auto clamp = [&](double v) { return std::min(std::max(v, 0.0), double(S - 1)); };
  if (pad == "repeat") return clamp(s);
  if (pad == "reflect") return align ? reflect_ref(s, 0, S - 1) : clamp(reflect_ref(2 * s, -1, 2.0 * S - 1) / 2);
  return s;
}

Reference warp_ref(bool linear, std::string pad, bool align) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    const auto& xs = in[0].shape;
    const auto& gs = in[1].shape;
    const int nd = int(gs.size()) - 2;
    nn::Shape ys{xs[0], xs[1]};
    ys.insert(ys.end(), gs.begin() + 1, gs.end() - 1);
    RefArray y{ys, std::vector<double>(size_t(ref_size(ys)), 0.0)};
    int64_t ipts = 1, opts = ref_size(gs) / (gs[0] * nd);
    for (int d = 0; d < nd; ++d) ipts *= xs[2 + d];
    for (int64_t b = 0; b < xs[0]; ++b)
      for (int64_t c = 0; c < xs[1]; ++c)
        for (int64_t p = 0; p < opts; ++p) {
          double s[3];
          for (int d = 0; d < nd; ++d)
            s[d] = source(in[1].data[size_t((b * opts + p) * nd + nd - 1 - d)], xs[2 + d], pad, align);
          double acc = 0;
          for (int k = 0; k < (linear ? 1 << nd : 1); ++k) {
            double w = 1;
            int64_t idx = 0;
            bool inside = true;
            for (int d = 0; d < nd; ++d) {
              int64_t i;
              if (linear) {
                bool second = (k >> (nd - 1 - d)) & 1;
                double f = std::floor(s[d]);
                i = int64_t(f) + (second ? 1 : 0);
                w *= second ? s[d] - f : 1 - (s[d] - f);
              } else {
                i = int64_t(std::round(s[d]));
              }
              inside = inside && i >= 0 && i < xs[2 + d];
              idx = idx * xs[2 + d] + i;
            }
            if (inside) acc += w * in[0].data[size_t((b * xs[1] + c) * ipts + idx)];
          }
          y.data[size_t((b * xs[1] + c) * opts + p)] = acc;
        }
    return std::vector<RefArray>{y};
  };
}

void run_warp(const nn::Shape& xs, const nn::Shape& gs, const std::string& mode, const std::string& pad,
              bool align, double range, uint32_t seed) {
  std::mt19937 rng(seed);
  nn::Attrs a{{"mode", mode}, {"padding_mode", pad}, {"align_corners", align}};
  OpTestCase tc{"WarpByGrid",
                a,
                {random_input(xs, rng), random_input(gs, rng, -range, range)},
                warp_ref(mode == "linear", pad, align)};
  if (mode == "nearest") tc.check_grad = {true, false};  // upstream has no grid gradient in nearest mode
  run_op_test(tc);
}

}  // namespace

TEST(AffineGrid, TwoAndThreeD) {
  std::mt19937 rng(1);
  for (bool align : {false, true}) {
    run_op_test({"AffineGrid",
                 {{"size", std::vector<int64_t>{3, 4}}, {"align_corners", align}},
                 {random_input({2, 2, 3}, rng)},
                 affine_grid_ref({3, 4}, align)});
    run_op_test({"AffineGrid",
                 {{"size", std::vector<int64_t>{2, 3, 2}}, {"align_corners", align}},
                 {random_input({1, 3, 4}, rng)},
                 affine_grid_ref({2, 3, 2}, align)});
  }
}

TEST(WarpByGrid, Linear2D) {
  run_warp({1, 2, 3, 4}, {1, 2, 3, 2}, "linear", "zero", false, 1.2, 2);
  run_warp({2, 1, 3, 3}, {2, 2, 2, 2}, "linear", "zero", true, 1.2, 3);
  run_warp({1, 2, 3, 4}, {1, 3, 2, 2}, "linear", "repeat", false, 1.4, 4);
  run_warp({1, 1, 4, 3}, {1, 3, 3, 2}, "linear", "reflect", false, 1.6, 5);
  run_warp({1, 1, 4, 3}, {1, 3, 3, 2}, "linear", "reflect", true, 1.6, 6);
}

TEST(WarpByGrid, Linear3D) { run_warp({1, 2, 2, 3, 3}, {1, 2, 2, 2, 3}, "linear", "zero", false, 1.1, 7); }

TEST(WarpByGrid, Nearest) {
  run_warp({1, 2, 3, 4}, {1, 3, 3, 2}, "nearest", "zero", false, 1.2, 8);
  run_warp({1, 1, 3, 3, 2}, {1, 2, 2, 2, 3}, "nearest", "repeat", true, 1.3, 9);
}

TEST(WarpByFlow, InteriorFlow) {
  std::mt19937 rng(10);
  auto data = random_input({2, 2, 4, 5}, rng);
  // Flow keeps samples inside the image and away from integer offsets (kinks of the bilinear weights).
  RefArray flow{{2, 2, 4, 5}, std::vector<double>(80)};
  std::uniform_real_distribution<double> u(0.1, 0.9);
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t k = 0; k < 2; ++k)
      for (int64_t y = 0; y < 4; ++y)
        for (int64_t x = 0; x < 5; ++x) {
          double lim = k == 0 ? 4 - x : 3 - y;  // room to the right / bottom
          double v = double(float(u(rng)));
          flow.data[size_t(((n * 2 + k) * 4 + y) * 5 + x)] = lim >= 1 ? v : -v;
        }
  Reference ref = [](const RefInputs& in, const nn::Attrs&) {
    RefArray y = in[0];
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t c = 0; c < 2; ++c)
        for (int64_t r = 0; r < 4; ++r)
          for (int64_t x = 0; x < 5; ++x) {
            double fx = x + in[1].data[size_t(((n * 2) * 4 + r) * 5 + x)];
            double fy = r + in[1].data[size_t(((n * 2 + 1) * 4 + r) * 5 + x)];
            auto at = [&](int64_t yy, int64_t xx) { return in[0].data[size_t(((n * 2 + c) * 4 + yy) * 5 + xx)]; };
            int64_t x0 = int64_t(std::floor(fx)), y0 = int64_t(std::floor(fy));
            double a = fx - x0, b = fy - y0;
            y.data[size_t(((n * 2 + c) * 4 + r) * 5 + x)] =
                (1 - a) * (1 - b) * at(y0, x0) + a * (1 - b) * at(y0, x0 + 1) + (1 - a) * b * at(y0 + 1, x0) +
                a * b * at(y0 + 1, x0 + 1);
          }
    return std::vector<RefArray>{y};
  };
  run_op_test({"WarpByFlow", {}, {data, flow}, ref});
}
