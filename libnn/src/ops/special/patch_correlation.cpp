// PatchCorrelation: correlation of patches of x1 with shifted patches of x2 (N, H, W, C inputs), giving
// (N, out_h, out_w, shifts_h, shifts_w), as in optical-flow cost volumes.
#include <vector>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class PatchCorrelation : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    NN_CHECK(xs.size() == 4 && xs == in[1]->shape())
        << "PatchCorrelation: x1 " << to_string(xs) << " and x2 " << to_string(in[1]->shape())
        << " must be 4-D (N, H, W, C) and equal";
    auto pair = [&](const char* name, const std::vector<int64_t>& def) {
      auto v = attrs_.get_ints(name, def);
      NN_CHECK(v.size() == 2) << "PatchCorrelation: " << name << " must have 2 values, got " << to_string(v);
      return v;
    };
    patch_ = pair("patch", {1, 1});
    shift_ = pair("shift", {0, 0});
    patch_step_ = pair("patch_step", {1, 1});
    shift_step_ = pair("shift_step", {1, 1});
    padding_ = attrs_.get_ints("padding");
    NN_CHECK(padding_.size() == 4) << "PatchCorrelation: padding must be (top, bottom, left, right), got "
                                   << to_string(padding_);
    for (int d = 0; d < 2; ++d)
      NN_CHECK(patch_[d] > 0 && shift_[d] >= 0 && patch_step_[d] > 0 && shift_step_[d] > 0)
          << "PatchCorrelation: patch " << to_string(patch_) << " and steps must be positive, shift "
          << to_string(shift_) << " non-negative";
    for (auto p : padding_) NN_CHECK(p >= 0) << "PatchCorrelation: padding " << to_string(padding_) << " < 0";
    const int64_t h = xs[1], w = xs[2];
    const int64_t och = (2 * shift_[0] + shift_step_[0]) / shift_step_[0];
    const int64_t ocw = (2 * shift_[1] + shift_step_[1]) / shift_step_[1];
    const int64_t oh = (h + padding_[0] + padding_[1] - patch_[0] + patch_step_[0]) / patch_step_[0];
    const int64_t ow = (w + padding_[2] + padding_[3] - patch_[1] + patch_step_[1]) / patch_step_[1];
    NN_CHECK(oh > 0 && ow > 0) << "PatchCorrelation: patch " << to_string(patch_) << " does not fit "
                               << to_string(xs);
    out[0]->reshape({xs[0], oh, ow, och, ocw}, true);
  }

  // Calls f(out_index, i1, i2) for every pair of pixel offsets (channel 0) correlated into out_index.
  template <class F>
  void for_each_pair(const Shape& xs, F&& f) const {
    const int64_t n_batch = xs[0], h = xs[1], w = xs[2], c = xs[3];
    auto flat = [&](int64_t n, int64_t y, int64_t x) { return ((n * h + y) * w + x) * c; };
    int64_t o = 0;
    for (int64_t n = 0; n < n_batch; ++n)
      for (int64_t y = -padding_[0]; y <= h - patch_[0] + padding_[1]; y += patch_step_[0])
        for (int64_t x = -padding_[2]; x <= w - patch_[1] + padding_[3]; x += patch_step_[1])
          for (int64_t dy = -shift_[0]; dy <= shift_[0]; dy += shift_step_[0])
            for (int64_t dx = -shift_[1]; dx <= shift_[1]; dx += shift_step_[1], ++o)
              for (int64_t ky = 0; ky < patch_[0]; ++ky) {
                const int64_t y1 = y + ky, y2 = y + dy + ky;
                if (y1 < 0 || y1 >= h || y2 < 0 || y2 >= h) continue;
                for (int64_t kx = 0; kx < patch_[1]; ++kx) {
                  const int64_t x1 = x + kx, x2 = x + dx + kx;
                  if (x1 < 0 || x1 >= w || x2 < 0 || x2 >= w) continue;
                  f(o, flat(n, y1, x1), flat(n, y2, x2));
                }
              }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* a = in_data(in[0]);
    const float* b = in_data(in[1]);
    const int64_t c = in[0]->shape()[3];
    std::vector<double> acc(size_t(out[0]->size()), 0.0);
    for_each_pair(in[0]->shape(), [&](int64_t o, int64_t i1, int64_t i2) {
      double s = 0;
      for (int64_t k = 0; k < c; ++k) s += double(a[i1 + k]) * b[i2 + k];
      acc[size_t(o)] += s;
    });
    float* y = out_data(out[0]);
    for (size_t i = 0; i < acc.size(); ++i) y[i] = float(acc[i]);
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* a = in_data(in[0]);
    const float* b = in_data(in[1]);
    const float* g = out_grad(out[0]);
    const int64_t c = in[0]->shape()[3];
    float* ga = prop[0] ? in_grad_zeroed(in[0], accum[0]) : nullptr;
    float* gb = prop[1] ? in_grad_zeroed(in[1], accum[1]) : nullptr;
    for_each_pair(in[0]->shape(), [&](int64_t o, int64_t i1, int64_t i2) {
      for (int64_t k = 0; k < c; ++k) {
        if (ga) ga[i1 + k] += b[i2 + k] * g[o];
        if (gb) gb[i2 + k] += a[i1 + k] * g[o];
      }
    });
  }

 private:
  std::vector<int64_t> patch_, shift_, patch_step_, shift_step_, padding_;
};

}  // namespace

void register_patch_correlation(OpRegistry& r) {
  register_cpu<PatchCorrelation>(r,
                                 SchemaBuilder("PatchCorrelation", "Unsupported, Special Use")
                                     .doc("correlation of x1 patches with shifted x2 patches")
                                     .in("x1")
                                     .in("x2")
                                     .arg("patch", AttrType::kShape, AttrValue(std::vector<int64_t>{1, 1}))
                                     .arg("shift", AttrType::kShape, AttrValue(std::vector<int64_t>{0, 0}))
                                     .arg("patch_step", AttrType::kShape, AttrValue(std::vector<int64_t>{1, 1}))
                                     .arg("shift_step", AttrType::kShape, AttrValue(std::vector<int64_t>{1, 1}))
                                     .arg("padding", AttrType::kShape, AttrValue(std::vector<int64_t>{0, 0, 0, 0}))
                                     .out("y")
                                     .build());
}

}  // namespace nn::ops
