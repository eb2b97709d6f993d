// MaxPoolingBackward: the gradient of MaxPooling as a function (dx from dy and x), used for double backward.
// Forward scatters dy onto each window's argmax in x; backward gathers g_dx at the argmax for dy, and x gets
// no gradient (zero), as upstream.
#include <limits>

#include "ops/detail/op_common.hpp"
#include "ops/pooling/pooling_common.hpp"

namespace nn::ops {
namespace {

class MaxPoolingBackward : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int i, int j) const override { return j == 1; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[1]->shape();
    plan_ = plan_pooling("MaxPoolingBackward", xs, attrs_);
    NN_CHECK(in[0]->shape() == plan_.y_shape)
        << "MaxPoolingBackward: dy " << to_string(in[0]->shape()) << " must have the pooled shape "
        << to_string(plan_.y_shape) << " of x " << to_string(xs);
    out[0]->reshape(xs, true);
  }

  // argmax[m * out_size + o]: offset within map m of the first maximum of window o (-1: empty window).
  std::vector<int64_t> argmax(const float* x) const {
    const PoolPlan& p = plan_;
    std::vector<int64_t> am(size_t(p.maps * p.out_size), -1);
    for (int64_t m = 0; m < p.maps; ++m) {
      const float* xm = x + m * p.in_size;
      for_each_window(p, [&](int64_t yi, const int64_t* lo, const int64_t* hi, const int64_t*) {
        float best = -std::numeric_limits<float>::infinity();
        int64_t arg = -1;
        for_each_in_window(p, lo, hi, [&](int64_t xi) {
          if (arg < 0 || xm[xi] > best) {
            best = xm[xi];
            arg = xi;
          }
        });
        am[size_t(m * p.out_size + yi)] = arg;
      });
    }
    return am;
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const PoolPlan& p = plan_;
    const auto am = argmax(in_data(in[1]));
    const float* dy = in_data(in[0]);
    float* dx = out_data(out[0]);
    std::fill(dx, dx + out[0]->size(), 0.f);
    for (int64_t m = 0; m < p.maps; ++m)
      for (int64_t o = 0; o < p.out_size; ++o) {
        const int64_t a = am[size_t(m * p.out_size + o)];
        if (a >= 0) dx[m * p.in_size + a] += dy[m * p.out_size + o];
      }
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const PoolPlan& p = plan_;
    if (prop[0]) {
      const auto am = argmax(in_data(in[1]));
      const float* gdx = out_grad(out[0]);
      float* gdy = in_grad(in[0], accum[0]);
      for (int64_t m = 0; m < p.maps; ++m)
        for (int64_t o = 0; o < p.out_size; ++o) {
          const int64_t a = am[size_t(m * p.out_size + o)];
          store_grad(gdy, m * p.out_size + o, a >= 0 ? gdx[m * p.in_size + a] : 0.f, accum[0]);
        }
    }
    if (prop[1]) in_grad_zeroed(in[1], accum[1]);  // piecewise constant in x
  }

 private:
  PoolPlan plan_;
};

}  // namespace

void register_max_pooling_backward(OpRegistry& r) {
  register_cpu<MaxPoolingBackward>(r, SchemaBuilder("MaxPoolingBackward", "Unsupported, Special Use")
                                          .doc("gradient of MaxPooling w.r.t. its input, as a function")
                                          .in("dy")
                                          .in("x")
                                          .arg("kernel", AttrType::kShape)
                                          .arg("stride", AttrType::kShape, std::nullopt, "kernel")
                                          .arg("ignore_border", AttrType::kBool, AttrValue(true))
                                          .arg("pad", AttrType::kShape, std::nullopt, "0s")
                                          .arg("channel_last", AttrType::kBool, AttrValue(false))
                                          .out("dx")
                                          .build());
}

}  // namespace nn::ops
