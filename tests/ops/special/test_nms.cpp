// NmsDetection2d and ONNXNonMaxSuppression against a greedy double-precision NMS written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "op_tester.hpp"

using namespace nn::test;

namespace {

double iou_xywh(const double* a, const double* b) {
  const double w = std::min(a[0] + a[2] / 2, b[0] + b[2] / 2) - std::max(a[0] - a[2] / 2, b[0] - b[2] / 2);
  const double h = std::min(a[1] + a[3] / 2, b[1] + b[3] / 2) - std::max(a[1] - a[3] / 2, b[1] - b[3] / 2);
  if (w <= 0 || h <= 0) return 0;
  return w * h / (a[2] * a[3] + b[2] * b[3] - w * h);
}

double iou_corners(const double* a, const double* b) {
  auto lo = [](double u, double v) { return std::min(u, v); };
  auto hi = [](double u, double v) { return std::max(u, v); };
  const double w = std::min(hi(a[1], a[3]), hi(b[1], b[3])) - std::max(lo(a[1], a[3]), lo(b[1], b[3]));
  const double h = std::min(hi(a[0], a[2]), hi(b[0], b[2])) - std::max(lo(a[0], a[2]), lo(b[0], b[2]));
  if (w <= 0 || h <= 0) return 0;
  const double area_a = std::abs((a[2] - a[0]) * (a[3] - a[1])), area_b = std::abs((b[2] - b[0]) * (b[3] - b[1]));
  return w * h / (area_a + area_b - w * h);
}

std::vector<int64_t> by_score(const std::vector<double>& s) {
  std::vector<int64_t> idx(s.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t i, int64_t j) { return s[size_t(i)] > s[size_t(j)]; });
  return idx;
}

Reference yolo_ref(double thresh, double nms, bool per_class) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    const auto& s = in[0].shape;
    const int64_t nb = s[0], nbox = s[1], row = s[2], ncls = row - 5;
    RefArray y = in[0];
    for (int64_t i = 0; i < nb * nbox; ++i) {
      double* r = &y.data[size_t(i * row)];
      r[4] = r[4] < thresh ? 0 : r[4];
      for (int64_t k = 0; k < ncls; ++k) r[5 + k] = r[4] * r[5 + k] < thresh ? 0 : r[4] * r[5 + k];
    }
    for (int64_t b = 0; b < nb; ++b) {
      auto box = [&](int64_t i) { return &y.data[size_t((b * nbox + i) * row)]; };
      for (int64_t k = per_class ? 0 : -1; k < (per_class ? ncls : 0); ++k) {
        const int64_t col = per_class ? 5 + k : 4;
        std::vector<double> score(static_cast<size_t>(nbox));
        for (int64_t i = 0; i < nbox; ++i) score[size_t(i)] = box(i)[col];
        const auto order = by_score(score);
        // Each box is dropped when a better-ranked box overlaps it (kept boxes only, per class; any box
        // else).
        for (size_t i = 0; i < order.size(); ++i) {
          double* cur = box(order[i]);
          if (cur[col] == 0) continue;
          for (size_t j = 0; j < i; ++j) {
            const double* better = box(order[j]);
            if ((!per_class || better[col] != 0) && iou_xywh(better, cur) > nms) {
              if (per_class)
                cur[col] = 0;
              else
                std::fill(cur + 4, cur + row, 0.0);
              break;
            }
          }
        }
      }
    }
    return std::vector<RefArray>{y};
  };
}

Reference onnx_ref(bool center, int64_t max_out, double iou_thr, double score_thr) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    const auto& ss = in[1].shape;
    std::vector<double> out;
    for (int64_t b = 0; b < ss[0]; ++b)
      for (int64_t k = 0; k < ss[1]; ++k) {
        std::vector<double> score(in[1].data.begin() + (b * ss[1] + k) * ss[2],
                                  in[1].data.begin() + (b * ss[1] + k + 1) * ss[2]);
        std::vector<int64_t> kept;
        for (int64_t i : by_score(score)) {
          if (score[size_t(i)] < score_thr || int64_t(kept.size()) >= max_out) continue;
          const double* bi = &in[0].data[size_t((b * ss[2] + i) * 4)];
          bool ok = true;
          for (int64_t j : kept) {
            const double* bj = &in[0].data[size_t((b * ss[2] + j) * 4)];
            ok &= (center ? iou_xywh(bj, bi) : iou_corners(bj, bi)) <= iou_thr;
          }
          if (ok) kept.push_back(i);
        }
        for (int64_t i : kept) out.insert(out.end(), {double(b), double(k), double(i)});
      }
    return std::vector<RefArray>{{{int64_t(out.size() / 3), 3}, out}};
  };
}

// Boxes in a 4x4 grid with jittered sizes, so that neighbours overlap by varying amounts.
RefArray yolo_input(std::mt19937& rng, int64_t nb, int64_t nbox, int64_t ncls) {
  std::uniform_real_distribution<double> u(0, 1);
  RefArray x{{nb, nbox, 5 + ncls}, {}};
  for (int64_t i = 0; i < nb * nbox; ++i) {
    x.data.insert(x.data.end(), {double(float((i % 4) * 0.5 + 0.3 * u(rng))), double(float((i / 4 % 4) * 0.5)),
                                 double(float(0.6 + 0.6 * u(rng))), double(float(0.6 + 0.6 * u(rng)))});
    for (int64_t k = 0; k < 1 + ncls; ++k) x.data.push_back(double(float(u(rng))));
  }
  return x;
}

}  // namespace

TEST(NmsDetection2d, MatchesGreedyNms) {
  for (bool per_class : {true, false}) {
    std::mt19937 rng(per_class ? 1 : 2);
    OpTestCase tc{"NmsDetection2d",
                  {{"thresh", 0.2}, {"nms", 0.3}, {"nms_per_class", per_class}},
                  {yolo_input(rng, 2, 12, 3)},
                  yolo_ref(0.2, 0.3, per_class)};
    tc.check_backward = false;  // forward-only, as upstream
    run_op_test(tc);
  }
}

TEST(ONNXNonMaxSuppression, MatchesGreedyNms) {
  for (int64_t center : {0, 1}) {
    for (int64_t max_out : {0, 2, 10}) {
      std::mt19937 rng(static_cast<uint32_t>(7 + center * 10 + max_out));
      RefArray boxes = random_input({2, 8, 4}, rng, 0.0, 2.0);
      if (center)
        for (size_t i = 2; i < boxes.data.size(); i += 4) {
          boxes.data[i] = double(float(boxes.data[i] * 0.5 + 0.2));
          boxes.data[i + 1] = double(float(boxes.data[i + 1] * 0.5 + 0.2));
        }
      OpTestCase tc{"ONNXNonMaxSuppression",
                    {{"center_point_box", center},
                     {"max_output_boxes_per_class", max_out},
                     {"iou_threshold", 0.25},
                     {"score_threshold", 0.3}},
                    {boxes, random_input({2, 3, 8}, rng, 0.0, 1.0)},
                    onnx_ref(center == 1, max_out, 0.25, 0.3)};
      tc.check_backward = false;  // forward-only, as upstream
      run_op_test(tc);
    }
  }
}
