// AffineGrid: source sampling grid = theta (B, 2, 3) or (B, 3, 4) applied to the normalized target grid.
#include <vector>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class AffineGrid : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& ts = in[0]->shape();
    size_ = attrs_.get_ints("size", {});
    const int64_t nd = int64_t(size_.size());
    NN_CHECK(nd == 2 || nd == 3) << "AffineGrid: size must have 2 (H, W) or 3 (D, H, W) entries, got "
                                 << to_string(size_);
    NN_CHECK(ts.size() == 3 && ts[1] == nd && ts[2] == nd + 1)
        << "AffineGrid: theta shape " << to_string(ts) << " must be (B, " << nd << ", " << nd + 1 << ")";
    for (auto s : size_) NN_CHECK(s > 0) << "AffineGrid: size " << to_string(size_) << " must be positive";
    Shape gs{ts[0]};
    gs.insert(gs.end(), size_.begin(), size_.end());
    gs.push_back(nd);
    out[0]->reshape(gs, true);
    // Target points (x, y[, z], 1) in output order; x runs along the last size entry.
    const bool align = attrs_.get_bool("align_corners");
    const int64_t points = shape_size(size_);
    target_.assign(size_t(points * (nd + 1)), 1.f);
    for (int64_t p = 0; p < points; ++p) {
      int64_t rest = p;
      for (int64_t d = nd - 1; d >= 0; --d) {
        const int64_t s = size_[d], i = rest % s;
        rest /= s;
        // Upstream divides by S - 1 (NaN for S == 1); a single sample sits at 0 here.
        float v = s > 1 ? 2.f * float(i) / float(s - 1) - 1.f : 0.f;
        if (!align) v *= float(s - 1) / float(s);
        target_[size_t(p * (nd + 1) + (nd - 1 - d))] = v;
      }
    }
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* theta = in_data(in[0]);
    float* grid = out_data(out[0]);
    const int64_t nd = int64_t(size_.size()), k = nd + 1, points = shape_size(size_);
    for (int64_t b = 0; b < in[0]->shape()[0]; ++b) {
      const float* th = theta + b * nd * k;
      for (int64_t p = 0; p < points; ++p) {
        const float* t = target_.data() + p * k;
        float* g = grid + (b * points + p) * nd;
        for (int64_t r = 0; r < nd; ++r) {
          float acc = 0;
          for (int64_t c = 0; c < k; ++c) acc += th[r * k + c] * t[c];
          g[r] = acc;
        }
      }
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dg = out_grad(out[0]);
    float* dth = in_grad_zeroed(in[0], accum[0]);
    const int64_t nd = int64_t(size_.size()), k = nd + 1, points = shape_size(size_);
    for (int64_t b = 0; b < in[0]->shape()[0]; ++b) {
      float* g = dth + b * nd * k;
      for (int64_t p = 0; p < points; ++p) {
        const float* t = target_.data() + p * k;
        const float* d = dg + (b * points + p) * nd;
        for (int64_t r = 0; r < nd; ++r)
          for (int64_t c = 0; c < k; ++c) g[r * k + c] += d[r] * t[c];
      }
    }
  }

 private:
  std::vector<int64_t> size_;
  std::vector<float> target_;
};

}  // namespace

void register_affine_grid(OpRegistry& r) {
  register_cpu<AffineGrid>(r, SchemaBuilder("AffineGrid", "Geometric Neural Network Layers")
                                  .doc("source grid from an affine transform of the normalized target grid")
                                  .in("theta")
                                  .arg("size", AttrType::kInts)
                                  .arg("align_corners", AttrType::kBool, AttrValue(false))
                                  .out("grid")
                                  .build());
}

}  // namespace nn::ops
