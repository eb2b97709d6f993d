// NmsDetection2d (YOLO-style suppression of (x, y, w, h, objectness, class scores) rows) and
// ONNXNonMaxSuppression (selected [batch, class, box] indices). Both are forward-only, as upstream.
#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

float overlap(float a_lo, float a_hi, float b_lo, float b_hi) {
  return std::min(a_hi, b_hi) - std::max(a_lo, b_lo);
}

// IoU of two (center x, center y, w, h) boxes; 0 when they do not overlap.
float iou_center(const float* a, const float* b) {
  const float w = overlap(a[0] - a[2] / 2, a[0] + a[2] / 2, b[0] - b[2] / 2, b[0] + b[2] / 2);
  const float h = overlap(a[1] - a[3] / 2, a[1] + a[3] / 2, b[1] - b[3] / 2, b[1] + b[3] / 2);
  if (w <= 0 || h <= 0) return 0.f;
  const float inter = w * h;
  return inter / (a[2] * a[3] + b[2] * b[3] - inter);
}

// IoU of two (y1, x1, y2, x2) boxes given by any pair of diagonal corners.
float iou_corners(const float* a, const float* b) {
  const auto [ay0, ay1] = std::minmax(a[0], a[2]);
  const auto [ax0, ax1] = std::minmax(a[1], a[3]);
  const auto [by0, by1] = std::minmax(b[0], b[2]);
  const auto [bx0, bx1] = std::minmax(b[1], b[3]);
  const float w = overlap(ax0, ax1, bx0, bx1), h = overlap(ay0, ay1, by0, by1);
  if (w <= 0 || h <= 0) return 0.f;
  const float inter = w * h;
  return inter / ((ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - inter);
}

// Indices 0..n-1 ordered by descending score (stable for ties).
std::vector<int64_t> order_by_score(int64_t n, const float* score, int64_t stride) {
  std::vector<int64_t> idx(static_cast<size_t>(n));
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](int64_t i, int64_t j) { return score[i * stride] > score[j * stride]; });
  return idx;
}

class NmsDetection2d : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    NN_CHECK(xs.size() == 3 && xs[2] > 5)
        << "NmsDetection2d: x must be (batch, boxes, 5 + classes), got " << to_string(xs);
    out[0]->reshape(xs, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const int64_t batch = xs[0], boxes = xs[1], row = xs[2], classes = row - 5;
    const float thresh = float(attrs_.get_float("thresh")), nms = float(attrs_.get_float("nms"));
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    auto cut = [&](float v) { return v < thresh ? 0.f : v; };
    for (int64_t i = 0; i < batch * boxes; ++i) {
      const float* xr = x + i * row;
      float* yr = y + i * row;
      std::copy(xr, xr + 4, yr);
      yr[4] = cut(xr[4]);
      for (int64_t k = 0; k < classes; ++k) yr[5 + k] = cut(yr[4] * xr[5 + k]);
    }
    for (int64_t b = 0; b < batch; ++b) {
      float* yb = y + b * boxes * row;
      if (attrs_.get_bool("nms_per_class")) {
        for (int64_t k = 0; k < classes; ++k) {
          const auto idx = order_by_score(boxes, yb + 5 + k, row);
          for (int64_t i = 0; i < boxes; ++i) {
            const float* box = yb + idx[size_t(i)] * row;
            if (box[5 + k] == 0) continue;
            for (int64_t j = i + 1; j < boxes; ++j) {
              float* box2 = yb + idx[size_t(j)] * row;
              if (box2[5 + k] != 0 && iou_center(box, box2) > nms) box2[5 + k] = 0;
            }
          }
        }
      } else {
        // Upstream walks from the lowest objectness up and drops a box overlapping any better-ranked box.
        const auto idx = order_by_score(boxes, yb + 4, row);
        for (int64_t i = boxes - 1; i >= 0; --i) {
          float* box = yb + idx[size_t(i)] * row;
          if (box[4] == 0) continue;
          for (int64_t j = i - 1; j >= 0; --j) {
            if (iou_center(box, yb + idx[size_t(j)] * row) > nms) {
              std::fill(box + 4, box + row, 0.f);
              break;
            }
          }
        }
      }
    }
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

class ONNXNonMaxSuppression : public Function {
 public:
  using Function::Function;
  bool output_size_follows_data() const override { return true; }
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& bs = in[0]->shape();
    const Shape& ss = in[1]->shape();
    NN_CHECK(bs.size() == 3 && bs[2] == 4)
        << "ONNXNonMaxSuppression: boxes must be (batch, boxes, 4), got " << to_string(bs);
    NN_CHECK(ss.size() == 3 && ss[0] == bs[0] && ss[2] == bs[1])
        << "ONNXNonMaxSuppression: scores " << to_string(ss) << " must be (batch, classes, boxes) for boxes "
        << to_string(bs);
    const int64_t cpb = attrs_.get_int("center_point_box");
    NN_CHECK(cpb == 0 || cpb == 1) << "ONNXNonMaxSuppression: center_point_box must be 0 or 1, got " << cpb;
    NN_CHECK(attrs_.get_int("max_output_boxes_per_class") >= 0)
        << "ONNXNonMaxSuppression: max_output_boxes_per_class must be non-negative";
    // The output size depends on the data: computed here (as upstream) and again in forward.
    run(in, out);
  }
  void forward_impl(const Variables& in, const Variables& out) override { run(in, out); }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

 private:
  void run(const Variables& in, const Variables& out) {
    const Shape& ss = in[1]->shape();
    const int64_t batch = ss[0], classes = ss[1], boxes = ss[2];
    const bool center = attrs_.get_int("center_point_box") == 1;
    const int64_t max_out = attrs_.get_int("max_output_boxes_per_class");
    const float iou_thr = float(attrs_.get_float("iou_threshold"));
    const float score_thr = float(attrs_.get_float("score_threshold"));
    const float* bx = in_data(in[0]);
    const float* sc = in_data(in[1]);
    std::vector<std::array<int64_t, 3>> picked;
    for (int64_t b = 0; b < batch && max_out > 0; ++b) {
      for (int64_t k = 0; k < classes; ++k) {
        const float* s = sc + (b * classes + k) * boxes;
        const auto idx = order_by_score(boxes, s, 1);
        std::vector<char> keep(static_cast<size_t>(boxes));
        for (int64_t i = 0; i < boxes; ++i) keep[size_t(i)] = s[i] >= score_thr;
        for (int64_t i = 0; i < boxes; ++i) {
          if (!keep[size_t(idx[size_t(i)])]) continue;
          const float* box = bx + (b * boxes + idx[size_t(i)]) * 4;
          for (int64_t j = i + 1; j < boxes; ++j) {
            const int64_t other = idx[size_t(j)];
            if (!keep[size_t(other)]) continue;
            const float* box2 = bx + (b * boxes + other) * 4;
            if ((center ? iou_center(box, box2) : iou_corners(box, box2)) > iou_thr) keep[size_t(other)] = 0;
          }
        }
        int64_t count = 0;
        for (int64_t i = 0; i < boxes && count < max_out; ++i)
          if (keep[size_t(idx[size_t(i)])]) {
            picked.push_back({b, k, idx[size_t(i)]});
            ++count;
          }
      }
    }
    out[0]->reshape({int64_t(picked.size()), 3}, true);
    float* y = out_data(out[0]);
    for (size_t i = 0; i < picked.size(); ++i)
      for (int c = 0; c < 3; ++c) y[i * 3 + c] = float(picked[i][size_t(c)]);
  }
};

}  // namespace

void register_nms_detection2d(OpRegistry& r) {
  register_cpu<NmsDetection2d>(r, SchemaBuilder("NmsDetection2d", "Unsupported, Special Use")
                                      .doc("non-maximum suppression of YOLO-style detections")
                                      .in("x")
                                      .arg("thresh", AttrType::kFloat, AttrValue(0.5))
                                      .arg("nms", AttrType::kFloat, AttrValue(0.45))
                                      .arg("nms_per_class", AttrType::kBool, AttrValue(true))
                                      .out("y")
                                      .build());
}
void register_onnx_non_max_suppression(OpRegistry& r) {
  register_cpu<ONNXNonMaxSuppression>(r,
                                      SchemaBuilder("ONNXNonMaxSuppression", "Unsupported, Special Use")
                                          .doc("ONNX NonMaxSuppression: selected (batch, class, box) indices")
                                          .in("boxes")
                                          .in("scores")
                                          .arg("center_point_box", AttrType::kInt, AttrValue(int64_t(0)))
                                          .arg("max_output_boxes_per_class", AttrType::kInt, AttrValue(int64_t(0)))
                                          .arg("iou_threshold", AttrType::kFloat, AttrValue(0.0))
                                          .arg("score_threshold", AttrType::kFloat, AttrValue(0.0))
                                          .out("y")
                                          .build());
}

}  // namespace nn::ops
