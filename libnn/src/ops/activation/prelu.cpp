// PReLU: y = max(0, x) + w * min(0, x), one shared slope or one per channel (the axis base_axis).
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {
class PReLU : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const Shape& ws = in[1]->shape();
    const int64_t base_axis = attrs_.get_int("base_axis");
    NN_CHECK(base_axis >= 0 && base_axis < int64_t(xs.size()))
        << "PReLU: base_axis " << base_axis << " is out of range for input shape " << to_string(xs);
    NN_CHECK(in[1]->size() == 1 || (ws.size() == 1 && ws[0] == xs[size_t(base_axis)]))
        << "PReLU: slope shape " << to_string(ws) << " must be (1,) or (" << xs[size_t(base_axis)]
        << ",) for input shape " << to_string(xs) << " and base_axis " << base_axis;
    channels_ = in[1]->size() == 1 ? 1 : ws[0];
    inner_ = shape_size(xs, size_t(base_axis) + 1, xs.size());
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
      parallel_for(n,
                   [&](int64_t i) { store_grad(dx, i, x[i] >= 0.f ? dy[i] : dy[i] * w[channel(i)], acc); });
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
