// GlobalAveragePooling: (N, C, ...) -> (N, C, 1, 1), the mean over all axes after the channel axis.
#include <algorithm>

#include "ops/detail/channels_last_view.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {
class GlobalAveragePooling : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& x = in[0]->shape();
    NN_CHECK(x.size() >= 2) << "GlobalAveragePooling: input " << to_string(x) << " must have at least 2 dims";
    maps_ = x[0] * x[1];
    area_ = shape_size(x, 2, x.size());
    out[0]->reshape({x[0], x[1], 1, 1}, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    if (held_channels_last(*in[0]->data())) return forward_channels_last(in, out);
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const float inv = area_ > 0 ? 1.f / float(area_) : 0.f;
    const int64_t area = area_;
    parallel_for_maps([&](int64_t m) {
      const float* p = x + m * area;
      float s = 0.f;
#pragma omp simd reduction(+ : s)
      for (int64_t i = 0; i < area; ++i) s += p[i];
      y[m] = s * inv;
    });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const float inv = area_ > 0 ? 1.f / float(area_) : 0.f;
    const int64_t area = area_;
    const bool acc = accum[0];
    parallel_for_maps([&](int64_t m) {
      float* p = dx + m * area;
      const float g = dy[m] * inv;
      if (acc) {
#pragma omp simd
        for (int64_t i = 0; i < area; ++i) p[i] += g;
      } else {
        std::fill(p, p + area, g);
      }
    });
  }

 private:
  // A channels-last input (a convolution's output, gradients off): sums over the pixels, all channels at once.
  void forward_channels_last(const Variables& in, const Variables& out) {
    const Shape& xs = in[0]->shape();
    const int64_t n = xs[0], c = xs[1];
    const float* x = static_cast<const float*>(in[0]->data()->get_raw(channels_last_key()));
    float* y = out_data(out[0]);
    const float inv = area_ > 0 ? 1.f / float(area_) : 0.f;
    for (int64_t b = 0; b < n; ++b) {
      float* yb = y + b * c;
      std::fill(yb, yb + c, 0.f);
      for (int64_t i = 0; i < area_; ++i) {
        const float* xp = x + (b * area_ + i) * c;
#pragma omp simd
        for (int64_t k = 0; k < c; ++k) yb[k] += xp[k];
      }
      for (int64_t k = 0; k < c; ++k) yb[k] *= inv;
    }
  }

  template <class F>
  void parallel_for_maps(F&& f) const {
    if (maps_ * area_ >= kParallelThreshold && maps_ > 1) {
#pragma omp parallel for schedule(static)
      for (int64_t m = 0; m < maps_; ++m) f(m);
    } else {
      for (int64_t m = 0; m < maps_; ++m) f(m);
    }
  }
  int64_t maps_ = 0, area_ = 0;
};
}  // namespace

void register_global_average_pooling(OpRegistry& r) {
  register_cpu<GlobalAveragePooling>(r, SchemaBuilder("GlobalAveragePooling", "Neural Network Layer")
                                            .doc("mean over all axes after the channel axis, kept as (N, C, 1, 1)")
                                            .in("x")
                                            .out("y")
                                            .build());
}

}  // namespace nn::ops
