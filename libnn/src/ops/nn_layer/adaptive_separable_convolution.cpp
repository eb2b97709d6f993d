// AdaptiveSeparableConvolution: per-sample, per-pixel separable 2-D kernels (NCHW):
// y(b,c,h,w) = sum_{j,i} kv(b,j,h,w) * kh(b,i,h,w) * x(b,c,h+j,w+i), output (B, C, H-Kv+1, W-Kh+1).
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class AdaptiveSeparableConvolution : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape &xs = in[0]->shape(), &vs = in[1]->shape(), &hs = in[2]->shape();
    NN_CHECK(xs.size() == 4 && vs.size() == 4 && hs.size() == 4)
        << "AdaptiveSeparableConvolution: x " << to_string(xs) << ", vertical_kernel " << to_string(vs)
        << " and horizontal_kernel " << to_string(hs) << " must all be 4-D";
    NN_CHECK(vs[0] == xs[0] && hs[0] == xs[0])
        << "AdaptiveSeparableConvolution: batch sizes differ: x " << to_string(xs) << ", vertical_kernel "
        << to_string(vs) << ", horizontal_kernel " << to_string(hs);
    b_ = xs[0], c_ = xs[1], h_ = xs[2], w_ = xs[3], kv_ = vs[1], kh_ = hs[1];
    oh_ = h_ - kv_ + 1, ow_ = w_ - kh_ + 1;
    NN_CHECK(oh_ > 0 && ow_ > 0) << "AdaptiveSeparableConvolution: kernel sizes (" << kv_ << ", " << kh_
                                 << ") exceed the input " << to_string(xs);
    for (const Shape* ks : {&vs, &hs})
      NN_CHECK((*ks)[2] >= oh_ && (*ks)[2] <= h_ && (*ks)[3] >= ow_ && (*ks)[3] <= w_)
          << "AdaptiveSeparableConvolution: kernel spatial size " << to_string(*ks)
          << " must lie between the output (" << oh_ << ", " << ow_ << ") and the input (" << h_ << ", " << w_
          << ")";
    vh_ = vs[2], vw_ = vs[3], hh_ = hs[2], hw_ = hs[3];
    out[0]->reshape({b_, c_, oh_, ow_}, true);
  }
  // Element offsets: kernel tap t at output pixel (h, w) of sample b.
  int64_t v_at(int64_t b, int64_t t, int64_t h, int64_t w) const { return ((b * kv_ + t) * vh_ + h) * vw_ + w; }
  int64_t h_at(int64_t b, int64_t t, int64_t h, int64_t w) const { return ((b * kh_ + t) * hh_ + h) * hw_ + w; }
  int64_t x_at(int64_t b, int64_t c, int64_t h, int64_t w) const { return ((b * c_ + c) * h_ + h) * w_ + w; }
  int64_t y_at(int64_t b, int64_t c, int64_t h, int64_t w) const { return ((b * c_ + c) * oh_ + h) * ow_ + w; }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float *x = in_data(in[0]), *kv = in_data(in[1]), *kh = in_data(in[2]);
    float* y = out_data(out[0]);
    parallel_for(b_ * c_, [&](int64_t bc) {
      const int64_t b = bc / c_, c = bc % c_;
      for (int64_t h = 0; h < oh_; ++h)
        for (int64_t w = 0; w < ow_; ++w) {
          float acc = 0.f;
          for (int64_t j = 0; j < kv_; ++j) {
            float row = 0.f;
            for (int64_t i = 0; i < kh_; ++i) row += kh[h_at(b, i, h, w)] * x[x_at(b, c, h + j, w + i)];
            acc += kv[v_at(b, j, h, w)] * row;
          }
          y[y_at(b, c, h, w)] = acc;
        }
    });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float *x = in_data(in[0]), *kv = in_data(in[1]), *kh = in_data(in[2]);
    const float* dy = out_grad(out[0]);
    if (prop[0]) {
      float* dx = in_grad_zeroed(in[0], accum[0]);
      parallel_for(b_ * c_, [&](int64_t bc) {  // each (b, c) plane is written by one iteration only
        const int64_t b = bc / c_, c = bc % c_;
        for (int64_t h = 0; h < oh_; ++h)
          for (int64_t w = 0; w < ow_; ++w) {
            const float g = dy[y_at(b, c, h, w)];
            for (int64_t j = 0; j < kv_; ++j)
              for (int64_t i = 0; i < kh_; ++i)
                dx[x_at(b, c, h + j, w + i)] += g * kv[v_at(b, j, h, w)] * kh[h_at(b, i, h, w)];
          }
      });
    }
    // Kernel grads: taps outside the output window (kernel maps larger than the output) get zero.
    if (prop[1]) {
      float* dkv = in_grad_zeroed(in[1], accum[1]);
      for (int64_t b = 0; b < b_; ++b)
        for (int64_t j = 0; j < kv_; ++j)
          for (int64_t h = 0; h < oh_; ++h)
            for (int64_t w = 0; w < ow_; ++w) {
              float s = 0.f;
              for (int64_t c = 0; c < c_; ++c)
                for (int64_t i = 0; i < kh_; ++i)
                  s += dy[y_at(b, c, h, w)] * kh[h_at(b, i, h, w)] * x[x_at(b, c, h + j, w + i)];
              dkv[v_at(b, j, h, w)] += s;
            }
    }
    if (prop[2]) {
      float* dkh = in_grad_zeroed(in[2], accum[2]);
      for (int64_t b = 0; b < b_; ++b)
        for (int64_t i = 0; i < kh_; ++i)
          for (int64_t h = 0; h < oh_; ++h)
            for (int64_t w = 0; w < ow_; ++w) {
              float s = 0.f;
              for (int64_t c = 0; c < c_; ++c)
                for (int64_t j = 0; j < kv_; ++j)
                  s += dy[y_at(b, c, h, w)] * kv[v_at(b, j, h, w)] * x[x_at(b, c, h + j, w + i)];
              dkh[h_at(b, i, h, w)] += s;
            }
    }
  }

 private:
  int64_t b_ = 0, c_ = 0, h_ = 0, w_ = 0, kv_ = 0, kh_ = 0, oh_ = 0, ow_ = 0;
  int64_t vh_ = 0, vw_ = 0, hh_ = 0, hw_ = 0;  // spatial sizes of the kernel maps
};

}  // namespace

void register_adaptive_separable_convolution(OpRegistry& r) {
  register_cpu<AdaptiveSeparableConvolution>(r,
                                             SchemaBuilder("AdaptiveSeparableConvolution", "Neural Network Layer")
                                                 .doc("per-pixel separable 2-D convolution (NCHW)")
                                                 .in("x")
                                                 .in("vertical_kernel")
                                                 .in("horizontal_kernel")
                                                 .out("y")
                                                 .build());
}
}  // namespace nn::ops
