// GlobalAveragePooling: (N, C, ...) -> (N, C, 1, 1), the mean over all axes after the channel axis.
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
  register_cpu<GlobalAveragePooling>(
      r, SchemaBuilder("GlobalAveragePooling", "Neural Network Layer")
             .doc("mean over all axes after the channel axis, kept as (N, C, 1, 1)")
             .in("x")
             .out("y")
             .build());
}

}  // namespace nn::ops
