// Unpooling: repeats every element kernel-fold along the last len(kernel) axes (nearest upsampling).
#include "ops/detail/op_common.hpp"
#include "ops/pooling/pooling_common.hpp"

namespace nn::ops {
namespace {
class Unpooling : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& x = in[0]->shape();
    kernel_ = unpooling_kernel(x, attrs_);
    const size_t first = x.size() - kernel_.size();
    in_.assign(x.begin() + first, x.end());
    Shape y = x;
    for (size_t d = 0; d < kernel_.size(); ++d) y[first + d] *= kernel_[d];
    out_.assign(y.begin() + first, y.end());
    maps_ = shape_size(x, 0, first);
    out[0]->reshape(y, true);
  }
  // Calls f(y_offset, x_offset) for every output element of map m (offsets within the map).
  template <class F>
  void for_each_output(F&& f) const {
    const size_t nd = kernel_.size();
    const int64_t n = shape_size(out_);
    std::vector<int64_t> o(nd, 0);
    for (int64_t yi = 0; yi < n; ++yi) {
      int64_t xi = 0;
      for (size_t d = 0; d < nd; ++d) xi = xi * in_[d] + o[d] / kernel_[d];
      f(yi, xi);
      for (size_t d = nd; d-- > 0;) {
        if (++o[d] < out_[d]) break;
        o[d] = 0;
      }
    }
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const int64_t xs = shape_size(in_), ys = shape_size(out_);
    for (int64_t m = 0; m < maps_; ++m) {
      const float* xm = x + m * xs;
      float* ym = y + m * ys;
      for_each_output([&](int64_t yi, int64_t xi) { ym[yi] = xm[xi]; });
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    const int64_t xs = shape_size(in_), ys = shape_size(out_);
    for (int64_t m = 0; m < maps_; ++m) {
      float* dxm = dx + m * xs;
      const float* dym = dy + m * ys;
      for_each_output([&](int64_t yi, int64_t xi) { dxm[xi] += dym[yi]; });
    }
  }

 private:
  Shape kernel_, in_, out_;
  int64_t maps_ = 0;
};
}  // namespace

void register_unpooling(OpRegistry& r) {
  register_cpu<Unpooling>(r, SchemaBuilder("Unpooling", "Neural Network Layer")
                                 .doc("repeat each element kernel times along the last len(kernel) axes")
                                 .in("x")
                                 .arg("kernel", AttrType::kShape)
                                 .arg("channel_last", AttrType::kBool, AttrValue(false))
                                 .out("y")
                                 .build());
}

}  // namespace nn::ops
