// RoiAlign: average of bilinear samples on a regular grid inside each output
// bin of each box (boxes (K, 5) = batch index, x1, y1, x2, y2 scaled by
// spatial_scale (y, x)); output (K, C, OH, OW).
#include <algorithm>
#include <cmath>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class RoiAlign : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int j) const override { return j == 1; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& x = in[0]->shape();
    const Shape& boxes = in[1]->shape();
    NN_CHECK(!attrs_.get_bool("channel_last"))
        << "RoiAlign: channel_last=true is not supported on CPU (input " << to_string(x) << ")";
    NN_CHECK(x.size() == 4) << "RoiAlign: input " << to_string(x) << " must be 4-D (N, C, H, W)";
    NN_CHECK(boxes.size() == 2 && boxes[1] == 5) << "RoiAlign: boxes " << to_string(boxes) << " must be (K, 5)";
    output_size_ = attrs_.get_ints("output_size", {});
    NN_CHECK(output_size_.size() == 2 && output_size_[0] > 0 && output_size_[1] > 0)
        << "RoiAlign: output_size " << to_string(output_size_) << " must be a positive (height, width)";
    scale_ = attrs_.get_floats("spatial_scale");
    NN_CHECK(scale_.size() == 2) << "RoiAlign: spatial_scale must be a (y, x) pair, got " << scale_.size()
                                 << " values";
    out[0]->reshape({boxes[0], x[1], output_size_[0], output_size_[1]}, true);
  }

  // Calls visit(output_index, input_offset, weight) for every bilinear tap of
  // every output element.
  template <class Visit>
  void for_each_tap(const Variables& in, Visit&& visit) const {
    const Shape& x = in[0]->shape();
    const int64_t K = in[1]->shape()[0], C = x[1], rows = x[2], cols = x[3], N = x[0];
    const int64_t OH = output_size_[0], OW = output_size_[1];
    const int64_t ratio = attrs_.get_int("sampling_ratio");
    const float* boxes = in_data(in[1]);
    for (int64_t k = 0; k < K; ++k) {
      const float* box = boxes + k * 5;
      const int64_t batch = std::min<int64_t>(std::max<int64_t>(int64_t(box[0]), 0), N - 1);
      const float x1 = box[1] * float(scale_[1]), y1 = box[2] * float(scale_[0]);
      const float x2 = box[3] * float(scale_[1]), y2 = box[4] * float(scale_[0]);
      const float step_x = std::max(x2 - x1, 1.f) / float(OW), step_y = std::max(y2 - y1, 1.f) / float(OH);
      const int64_t grid_x = ratio > 0 ? ratio : int64_t(std::ceil(step_x));
      const int64_t grid_y = ratio > 0 ? ratio : int64_t(std::ceil(step_y));
      const float sub_x = step_x / float(grid_x), sub_y = step_y / float(grid_y);
      const float inv_count = 1.f / float(grid_x * grid_y);
      for (int64_t oy = 0; oy < OH; ++oy) {
        for (int64_t ox = 0; ox < OW; ++ox) {
          for (int64_t gy = 0; gy < grid_y; ++gy) {
            float sy = y1 + float(oy) * step_y + float(gy) * sub_y + 0.5f * sub_y;
            if (sy < -1.f || sy > float(rows)) continue;
            sy = std::max(sy, 0.f);
            int64_t y_lo = int64_t(sy), y_hi = y_lo + 1;
            if (y_lo >= rows - 1) y_lo = y_hi = rows - 1, sy = float(y_lo);
            for (int64_t gx = 0; gx < grid_x; ++gx) {
              float sx = x1 + float(ox) * step_x + float(gx) * sub_x + 0.5f * sub_x;
              if (sx < -1.f || sx > float(cols)) continue;
              sx = std::max(sx, 0.f);
              int64_t x_lo = int64_t(sx), x_hi = x_lo + 1;
              if (x_lo >= cols - 1) x_lo = x_hi = cols - 1, sx = float(x_lo);
              const float ly = sy - std::floor(sy), lx = sx - std::floor(sx), hy = 1.f - ly, hx = 1.f - lx;
              const int64_t taps[4] = {y_lo * cols + x_lo, y_lo * cols + x_hi, y_hi * cols + x_lo,
                                       y_hi * cols + x_hi};
              const float weights[4] = {hy * hx * inv_count, hy * lx * inv_count, ly * hx * inv_count,
                                        ly * lx * inv_count};
              for (int64_t c = 0; c < C; ++c) {
                const int64_t o = ((k * C + c) * OH + oy) * OW + ox;
                const int64_t base = (batch * C + c) * rows * cols;
                for (int t = 0; t < 4; ++t) visit(o, base + taps[t], weights[t]);
              }
            }
          }
        }
      }
    }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    std::fill(y, y + out[0]->size(), 0.f);
    for_each_tap(in, [&](int64_t o, int64_t i, float w) { y[o] += w * x[i]; });
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    for_each_tap(in, [&](int64_t o, int64_t i, float w) { dx[i] += w * dy[o]; });
  }

 private:
  Shape output_size_;
  std::vector<double> scale_;
};
}  // namespace

void register_roi_align(OpRegistry& r) {
  register_cpu<RoiAlign>(r, SchemaBuilder("RoiAlign", "Neural Network Layer")
                                .doc("bilinear region-of-interest pooling to a fixed output size")
                                .in("input")
                                .in("boxes")
                                .arg("output_size", AttrType::kShape)
                                .arg("spatial_scale", AttrType::kFloats, AttrValue(std::vector<double>{1.0, 1.0}))
                                .arg("sampling_ratio", AttrType::kInt, AttrValue(int64_t(-1)))
                                .arg("channel_last", AttrType::kBool, AttrValue(false))
                                .out("y")
                                .build());
}

}  // namespace nn::ops
