// Interpolate: linear or nearest resampling of the last 1-3 dims to output_size (channel-first).
#include <algorithm>
#include <string>
#include <vector>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

float resize_scale(int64_t in, int64_t out, bool align_corners) {
  if (out <= 1) return 0.f;
  return align_corners ? float(in - 1) / float(out - 1) : float(in) / float(out);
}

class Interpolate : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    out_size_ = attrs_.get_ints("output_size", {});
    const std::string mode = attrs_.get_string("mode", "");
    const bool align = attrs_.get_bool("align_corners");
    const bool half_pixel = attrs_.get_bool("half_pixel");
    const bool half_pixel_nn = attrs_.get_bool("half_pixel_for_nn");
    const int nd = int(out_size_.size());
    NN_CHECK(nd >= 1 && nd <= 3) << "Interpolate: output_size must have 1 to 3 entries, got "
                                 << to_string(out_size_);
    NN_CHECK(mode == "linear" || mode == "nearest")
        << "Interpolate: mode must be 'linear' or 'nearest', got '" << mode << "'";
    NN_CHECK(!(align && half_pixel)) << "Interpolate: align_corners and half_pixel cannot both be true";
    NN_CHECK(!attrs_.get_bool("channel_last")) << "Interpolate: channel_last=true is not supported";
    NN_CHECK(int(xs.size()) >= nd) << "Interpolate: input " << to_string(xs) << " has fewer dims than output_size "
                                   << to_string(out_size_);
    for (auto s : out_size_)
      NN_CHECK(s > 0) << "Interpolate: output_size " << to_string(out_size_) << " must be positive";
    Shape ys = xs;
    const size_t offset = xs.size() - nd;
    for (int d = 0; d < nd; ++d) ys[offset + d] = out_size_[d];
    out[0]->reshape(ys, true);

    // Per spatial dim and output index: the two source taps and the weight of the second.
    in_dims_.assign(xs.begin() + offset, xs.end());
    lo_.assign(nd, {});
    hi_.assign(nd, {});
    w_.assign(nd, {});
    for (int d = 0; d < nd; ++d) {
      const int64_t isz = in_dims_[d], osz = out_size_[d];
      NN_CHECK(isz > 0) << "Interpolate: input " << to_string(xs) << " has an empty spatial dim";
      for (int64_t o = 0; o < osz; ++o) {
        int64_t i1, i2;
        float w = 0.f;
        if (mode == "linear") {
          const float s = resize_scale(isz, osz, align);
          const float f = half_pixel ? std::max(0.f, s * (float(o) + 0.5f) - 0.5f) : s * float(o);
          i1 = std::min(int64_t(f), isz - 1);
          i2 = std::min(i1 + 1, isz - 1);
          w = f - float(int64_t(f));
        } else {
          const float s = half_pixel_nn ? float(isz) / float(osz) : resize_scale(isz, osz, align);
          const float f = half_pixel_nn ? s * (float(o) + 0.5f)
                          : half_pixel  ? std::max(0.f, s * (float(o) + 0.5f) - 0.5f)
                                        : s * float(o);
          i1 = i2 = std::min(int64_t(f), isz - 1);
        }
        lo_[d].push_back(i1);
        hi_[d].push_back(i2);
        w_[d].push_back(w);
      }
    }
  }

  // Calls f(dst, src, weight) for every output element and each of its 2^nd source taps.
  template <class F>
  void for_each_tap(int64_t outer, F&& f) const {
    const int nd = int(out_size_.size());
    const int64_t in_block = shape_size(in_dims_), out_block = shape_size(out_size_);
    std::vector<int64_t> o(nd);
    for (int64_t n = 0; n < outer; ++n) {
      for (int64_t k = 0; k < out_block; ++k) {
        int64_t rest = k;
        for (int d = nd - 1; d >= 0; --d) o[d] = rest % out_size_[d], rest /= out_size_[d];
        for (int c = 0; c < (1 << nd); ++c) {
          float w = 1.f;
          int64_t src = 0;
          for (int d = 0; d < nd; ++d) {
            const bool second = (c >> (nd - 1 - d)) & 1;
            w *= second ? w_[d][o[d]] : 1.f - w_[d][o[d]];
            src = src * in_dims_[d] + (second ? hi_[d][o[d]] : lo_[d][o[d]]);
          }
          f(n * out_block + k, n * in_block + src, w);
        }
      }
    }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    std::fill(y, y + out[0]->size(), 0.f);
    const int64_t outer = in[0]->size() / std::max<int64_t>(1, shape_size(in_dims_));
    for_each_tap(outer, [&](int64_t dst, int64_t src, float w) { y[dst] += w * x[src]; });
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    const int64_t outer = in[0]->size() / std::max<int64_t>(1, shape_size(in_dims_));
    for_each_tap(outer, [&](int64_t dst, int64_t src, float w) { dx[src] += w * dy[dst]; });
  }

 private:
  std::vector<int64_t> out_size_, in_dims_;
  std::vector<std::vector<int64_t>> lo_, hi_;
  std::vector<std::vector<float>> w_;
};

}  // namespace

void register_interpolate(OpRegistry& r) {
  register_cpu<Interpolate>(r, SchemaBuilder("Interpolate", "Array Manipulation")
                                   .doc("linear or nearest resize of the last 1-3 dims")
                                   .in("x")
                                   .arg("output_size", AttrType::kInts)
                                   .arg("mode", AttrType::kString)
                                   .arg("align_corners", AttrType::kBool, AttrValue(true))
                                   .arg("half_pixel", AttrType::kBool, AttrValue(false))
                                   .arg("half_pixel_for_nn", AttrType::kBool, AttrValue(false))
                                   .arg("channel_last", AttrType::kBool, AttrValue(false))
                                   .out("y")
                                   .build());
}

}  // namespace nn::ops
