// Elementwise unary family: an op supplies f(x) and df(x, y) (dy/dx); the template does the rest.
#pragma once
#include <cmath>

#include "ops/detail/channels_last_view.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {

// Op must provide: static float f(float x, const P& p) and static float df(float x, float y, const P& p),
// where P is Op::Params built from Attrs by Op::Params(const Attrs&), and may provide a forward over arrays,
// static void f_array(const float* x, float* y, int64_t n), for ops without parameters. grad_depends_output tells
// whether df reads y (then the output must be kept for backward).
template <class Op>
class UnaryFunction : public Function {
 public:
  UnaryFunction(const OpSchema& s, const Context& c, const Attrs& a) : Function(s, c, a), p_(attrs_) {}
  bool grad_depends_output_data(int, int) const override { return Op::kUsesOutput; }
  bool grad_depends_input_data(int, int) const override { return Op::kUsesInput; }
  bool forward_in_place(int) const override { return true; }  // forward_impl reads x[i], then writes y[i]

 protected:
  void setup_impl(const Variables& in, const Variables& out) override { out[0]->reshape(in[0]->shape(), true); }
  void forward_impl(const Variables& in, const Variables& out) override {
    // An input a convolution left channels-last is read there and the output stays so (element by element, the
    // order does not matter): a reorder to the plain layout cost MobileNetV3's HardSigmoid chains more than them.
    const bool channels_last = held_channels_last(*in[0]->data());
    const float* x =
        channels_last ? static_cast<const float*>(in[0]->data()->get_raw(channels_last_key())) : in_data(in[0]);
    float* y = channels_last ? static_cast<float*>(out[0]->data()->cast_raw(channels_last_key(), true))
                             : out_data(out[0]);
    const auto p = p_;
    parallel_ranges(in[0]->size(), [&](int64_t begin, int64_t end, int) {
      if constexpr (requires { Op::f_array(x, y, begin); }) {  // an array kernel of the op's own
        Op::f_array(x + begin, y + begin, end - begin);
      } else {
#pragma omp simd
        for (int64_t i = begin; i < end; ++i) y[i] = Op::f(x[i], p);
      }
    });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* x = Op::kUsesInput ? in_data(in[0]) : nullptr;
    const float* y = Op::kUsesOutput ? in_data(out[0]) : nullptr;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const auto p = p_;
    const bool acc = accum[0];
    parallel_ranges(in[0]->size(), [&](int64_t begin, int64_t end, int) {
      auto grad_at = [&](int64_t i) {
        return dy[i] * Op::df(Op::kUsesInput ? x[i] : 0.f, Op::kUsesOutput ? y[i] : 0.f, p);
      };
      if (acc) {
#pragma omp simd
        for (int64_t i = begin; i < end; ++i) dx[i] += grad_at(i);
      } else {
#pragma omp simd
        for (int64_t i = begin; i < end; ++i) dx[i] = grad_at(i);
      }
    });
  }

 private:
  typename Op::Params p_;
};

// Params for ops without arguments.
struct NoParams {
  explicit NoParams(const Attrs&) {}
};

}  // namespace nn::ops
