// ONNXResize (forward only, as upstream) against a double reference built from the ONNX Resize formulas.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "nn/core/error.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {

struct ResizeSpec {
  std::vector<double> roi, scales;
  std::vector<int64_t> sizes;
  std::string mode = "nearest", coord = "half_pixel", nearest = "round_prefer_floor";
  double cubic_a = -0.75, extrapolation = 0.0;
  bool exclude_outside = false;
};

// ONNX's x_original for one axis; `crop` holds this axis' roi (start, end).
double onnx_coordinate(const ResizeSpec& s, double x, double scale, int64_t in, int64_t out, double start,
                       double end) {
  const std::string& m = s.coord;
  if (m == "half_pixel") return (x + 0.5) / scale - 0.5;
  if (m == "pytorch_half_pixel") return out > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
  if (m == "align_corners") return out == 1 ? 0.0 : x * double(in - 1) / double(out - 1);
  if (m == "asymmetric") return x / scale;
  if (m == "tf_half_pixel_for_nn") return (x + 0.5) / scale;
  // tf_crop_and_resize
  return out > 1 ? start * double(in - 1) + x * (end - start) * double(in - 1) / double(out - 1)
                 : 0.5 * (start + end) * double(in - 1);
}

// Keys' cubic convolution weight at distance t (expanded polynomials of the ONNX reference).
double keys(double a, double t) {
  t = std::fabs(t);
  if (t <= 1) return (a + 2) * t * t * t - (a + 3) * t * t + 1;
  if (t < 2) return a * t * t * t - 5 * a * t * t + 8 * a * t - 4 * a;
  return 0;
}

// Dense (out, in) interpolation matrix of one axis (edge-padded taps) and the outside-the-crop flags.
struct AxisMatrix {
  std::vector<std::vector<double>> m;
  std::vector<bool> outside;
};

AxisMatrix axis_matrix(const ResizeSpec& s, int64_t in, int64_t out, double scale, double start, double end) {
  AxisMatrix a{std::vector<std::vector<double>>(size_t(out), std::vector<double>(size_t(in), 0.0)),
               std::vector<bool>(size_t(out), false)};
  auto edge = [&](int64_t i) { return size_t(i < 0 ? 0 : i >= in ? in - 1 : i); };
  for (int64_t o = 0; o < out; ++o) {
    auto& row = a.m[size_t(o)];
    const double x = onnx_coordinate(s, double(o), scale, in, out, start, end);
    a.outside[size_t(o)] = s.coord == "tf_crop_and_resize" && (x < 0 || x > double(in - 1));
    if (s.mode == "nearest") {
      double r = s.nearest == "round_prefer_floor"  ? std::ceil(x - 0.5)
                 : s.nearest == "round_prefer_ceil" ? std::floor(x + 0.5)
                 : s.nearest == "floor"             ? std::floor(x)
                                                    : std::ceil(x);
      row[edge(int64_t(r))] = 1.0;
    } else if (s.mode == "linear") {
      const double lo = std::floor(x), r = x - lo;
      row[edge(int64_t(lo))] += 1 - r;
      row[edge(int64_t(lo) + 1)] += r;
    } else {
      const int64_t lo = int64_t(std::floor(x));
      double w[4], total = 0;
      for (int k = 0; k < 4; ++k) {
        const int64_t i = lo - 1 + k;
        w[k] = keys(s.cubic_a, x - double(i));
        if (s.exclude_outside && (i < 0 || i >= in)) w[k] = 0;
        total += w[k];
      }
      for (int k = 0; k < 4; ++k) row[edge(lo - 1 + k)] += s.exclude_outside ? w[k] / total : w[k];
    }
  }
  return a;
}

Reference resize_ref(const ResizeSpec& s) {
  return [s](const RefInputs& in, const nn::Attrs&) {
    const nn::Shape& xs = in[0].shape;
    const size_t nd = xs.size();
    nn::Shape ys(nd);
    std::vector<double> scale(nd);
    for (size_t d = 0; d < nd; ++d) {
      ys[d] = s.sizes.empty() ? int64_t(std::floor(double(xs[d]) * s.scales[d])) : s.sizes[d];
      scale[d] = s.sizes.empty() ? s.scales[d] : double(s.sizes[d]) / double(xs[d]);
    }
    // Apply one axis at a time (axes with scale 1 are copies), then overwrite extrapolated elements.
    std::vector<double> cur = in[0].data;
    nn::Shape cur_shape = xs;
    std::vector<std::vector<bool>> outside(nd);
    for (size_t d = 0; d < nd; ++d) {
      outside[d].assign(size_t(ys[d]), false);
      if (scale[d] == 1.0) continue;
      const double start = s.roi.empty() ? 0 : s.roi[d], end = s.roi.empty() ? 1 : s.roi[nd + d];
      AxisMatrix a = axis_matrix(s, xs[d], ys[d], scale[d], start, end);
      outside[d] = a.outside;
      int64_t before = 1, after = 1;
      for (size_t k = 0; k < d; ++k) before *= cur_shape[k];
      for (size_t k = d + 1; k < nd; ++k) after *= cur_shape[k];
      std::vector<double> next(size_t(before * ys[d] * after), 0.0);
      for (int64_t b = 0; b < before; ++b)
        for (int64_t o = 0; o < ys[d]; ++o)
          for (int64_t i = 0; i < xs[d]; ++i)
            for (int64_t t = 0; t < after; ++t)
              next[size_t((b * ys[d] + o) * after + t)] +=
                  a.m[size_t(o)][size_t(i)] * cur[size_t((b * xs[d] + i) * after + t)];
      cur.swap(next);
      cur_shape[d] = ys[d];
    }
    std::vector<int64_t> idx(nd, 0);
    for (size_t e = 0; e < cur.size(); ++e) {
      bool out_of_crop = false;
      for (size_t d = 0; d < nd; ++d) out_of_crop = out_of_crop || outside[d][size_t(idx[d])];
      if (out_of_crop) cur[e] = s.extrapolation;
      for (size_t d = nd; d-- > 0;)
        if (++idx[d] < ys[d])
          break;
        else
          idx[d] = 0;
    }
    return std::vector<RefArray>{RefArray{ys, cur}};
  };
}

nn::Attrs resize_attrs(const ResizeSpec& s) {
  return {{"roi", s.roi},
          {"scales", s.scales},
          {"sizes", s.sizes},
          {"mode", s.mode},
          {"coordinate_transformation_mode", s.coord},
          {"cubic_coeff_a", s.cubic_a},
          {"exclude_outside", int64_t(s.exclude_outside)},
          {"extrapolation_value", s.extrapolation},
          {"nearest_mode", s.nearest}};
}

void run(const nn::Shape& xs, const ResizeSpec& s, uint32_t seed) {
  std::mt19937 rng(seed);
  OpTestCase tc{"ONNXResize", resize_attrs(s), {random_input(xs, rng)}, resize_ref(s)};
  tc.check_backward = false;  // upstream's ONNXResize has no backward; neither has ours
  run_op_test(tc);
}

ResizeSpec with_scales(std::vector<double> scales, std::string mode, std::string coord) {
  ResizeSpec s;
  s.scales = std::move(scales);
  s.mode = std::move(mode);
  s.coord = std::move(coord);
  return s;
}

ResizeSpec with_sizes(std::vector<int64_t> sizes, std::string mode, std::string coord) {
  ResizeSpec s;
  s.sizes = std::move(sizes);
  s.mode = std::move(mode);
  s.coord = std::move(coord);
  return s;
}

}  // namespace

// The kernel computes coordinates in float (as upstream and ONNX Runtime); the cases below keep every
// coordinate exact in float, or away from rounding ties, so float and double pick the same sample.
TEST(ONNXResize, NearestModes) {
  uint32_t seed = 1;
  for (const char* nearest : {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}) {
    for (const char* coord : {"half_pixel", "asymmetric", "align_corners", "tf_half_pixel_for_nn"}) {
      ResizeSpec up = with_scales({1, 1, 2, 3}, "nearest", coord);
      up.nearest = nearest;
      run({1, 2, 3, 2}, up, seed++);
      ResizeSpec down = with_sizes({2, 1, 3, 2}, "nearest", coord);  // scales 1/2 and 1/4: exact in float
      down.nearest = nearest;
      run({2, 1, 6, 8}, down, seed++);
    }
  }
}

TEST(ONNXResize, Linear) {
  run({1, 2, 3, 4}, with_scales({1, 1, 2, 1.5}, "linear", "half_pixel"), 1);
  run({1, 2, 5, 4}, with_sizes({1, 2, 3, 7}, "linear", "half_pixel"), 2);
  run({2, 3, 4}, with_sizes({2, 3, 7}, "linear", "align_corners"), 3);
  run({1, 1, 4, 5}, with_scales({1, 1, 0.5, 2.5}, "linear", "asymmetric"), 4);
  run({1, 1, 4, 5}, with_sizes({1, 1, 1, 3}, "linear", "pytorch_half_pixel"), 5);
  run({3, 5}, with_scales({1, 0.6}, "linear", "half_pixel"), 6);
}

TEST(ONNXResize, Cubic) {
  run({1, 2, 4, 4}, with_scales({1, 1, 2, 1.5}, "cubic", "half_pixel"), 1);
  run({1, 1, 6, 5}, with_sizes({1, 1, 3, 4}, "cubic", "align_corners"), 2);
  run({1, 1, 4, 4}, with_scales({1, 1, 2, 2}, "cubic", "asymmetric"), 3);
  ResizeSpec excl = with_scales({1, 1, 0.8, 2}, "cubic", "half_pixel");
  excl.cubic_a = -0.5;
  excl.exclude_outside = true;
  run({1, 2, 5, 3}, excl, 4);
}

TEST(ONNXResize, ThreeAndFourResizedAxes) {
  run({1, 3, 2, 4}, with_sizes({1, 5, 3, 2}, "cubic", "half_pixel"), 1);
  run({1, 1, 2, 3, 4}, with_scales({1, 1, 2, 1.5, 0.5}, "linear", "align_corners"), 2);
  run({2, 3, 2, 3}, with_sizes({3, 2, 4, 5}, "linear", "pytorch_half_pixel"), 3);
  run({2, 3, 2, 3}, with_sizes({3, 1, 4, 5}, "nearest", "asymmetric"), 4);
}

TEST(ONNXResize, TfCropAndResize) {
  for (const char* mode : {"nearest", "linear", "cubic"}) {
    ResizeSpec s = with_sizes({1, 1, 3, 5}, mode, "tf_crop_and_resize");
    s.roi = {0, 0, 0.3, -0.2, 1, 1, 0.6, 1.3};  // the second axis reaches outside: extrapolated
    s.extrapolation = 10;
    run({1, 1, 4, 4}, s, 1);
  }
  ResizeSpec single = with_sizes({1, 2, 1, 3}, "linear", "tf_crop_and_resize");
  single.roi = {0, 0, 0.2, 0.1, 1, 1, 0.7, 0.9};
  run({1, 2, 4, 5}, single, 2);
}

TEST(ONNXResize, RejectsBadArguments) {
  auto expect_setup_error = [](const ResizeSpec& s, const nn::Shape& xs) {
    auto f = nn::OpRegistry::instance().create("ONNXResize", resize_attrs(s), nn::cpu_context());
    auto x = nn::Variable::create(xs, false), y = nn::Variable::create();
    EXPECT_THROW(f->setup({x.get()}, {y.get()}), nn::Error);
  };
  ResizeSpec both = with_scales({1, 2}, "linear", "half_pixel");
  both.sizes = {2, 4};
  expect_setup_error(both, {2, 2});
  expect_setup_error(with_scales({1, 2}, "bicubic", "half_pixel"), {2, 2});
  expect_setup_error(with_scales({1, 2}, "linear", "half_pixels"), {2, 2});
  expect_setup_error(with_scales({2}, "linear", "half_pixel"), {2, 2});
  ResizeSpec no_roi = with_scales({1, 2}, "linear", "tf_crop_and_resize");
  expect_setup_error(no_roi, {2, 2});
}
