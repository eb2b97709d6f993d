// PReLU: y = max(0, x) + w * min(0, x), one shared slope or one per channel (the axis base_axis).
#include "ops/activation/prelu_args.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {
class PReLU : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const PReluPlan plan = plan_prelu(attrs_, xs, in[1]->shape());
    channels_ = plan.channels;
    inner_ = plan.inner;
    out[0]->reshape(xs, true);
  }
  // Slope index of element i.
  int64_t channel(int64_t i) const { return channels_ == 1 ? 0 : (i / inner_) % channels_; }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const float* w = in_data(in[1]);
    float* y = out_data(out[0]);
    parallel_for(in[0]->size(), [&](int64_t i) { y[i] = x[i] >= 0.f ? x[i] : x[i] * w[channel(i)]; });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* x = in_data(in[0]);
    const float* w = in_data(in[1]);
    const float* dy = out_grad(out[0]);
    const int64_t n = in[0]->size();
    if (prop[0]) {
      float* dx = in_grad(in[0], accum[0]);
      const bool acc = accum[0];
      parallel_for(n, [&](int64_t i) { store_grad(dx, i, x[i] >= 0.f ? dy[i] : dy[i] * w[channel(i)], acc); });
    }
    if (prop[1]) {
      float* dw = in_grad_zeroed(in[1], accum[1]);
      for (int64_t i = 0; i < n; ++i)
        if (x[i] < 0.f) dw[channel(i)] += dy[i] * x[i];
    }
  }

 private:
  int64_t channels_ = 1, inner_ = 1;
};
}  // namespace

void register_prelu(OpRegistry& r) {
  register_cpu<PReLU>(r, SchemaBuilder("PReLU", "Neural Network Activation Functions")
                             .doc("y = max(0, x) + w * min(0, x)")
                             .in("x0")
                             .in_param("x1")
                             .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
                             .out("y")
                             .build());
}
}  // namespace nn::ops
