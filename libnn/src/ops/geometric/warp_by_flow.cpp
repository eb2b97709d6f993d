// WarpByFlow: bilinear sampling of NCHW data at (x + flow_x, y + flow_y), taps clamped to the image.
#include <algorithm>
#include <cmath>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class WarpByFlow : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& ds = in[0]->shape();
    const Shape& fs = in[1]->shape();
    NN_CHECK(ds.size() == 4 && fs.size() == 4 && fs[0] == ds[0] && fs[1] == 2 && fs[2] == ds[2] && fs[3] == ds[3])
        << "WarpByFlow: data " << to_string(ds) << " must be (N, C, H, W) and flow " << to_string(fs)
        << " (N, 2, H, W)";
    out[0]->reshape(ds, true);
  }

  // The clamped taps and fractional offsets of output pixel (y, x) for flow (fx, fy), as upstream.
  struct Taps {
    int64_t xl, xr, yt, yb;
    float xf, yf;
  };
  static Taps taps(int64_t x, int64_t y, float fx, float fy, int64_t H, int64_t W) {
    Taps t;
    t.xf = float(x) + fx;
    t.yf = float(y) + fy;
    auto clamp = [](float v, int64_t hi) { return std::max<int64_t>(0, std::min<int64_t>(hi, int64_t(v))); };
    t.xl = clamp(std::floor(t.xf), W - 1);
    t.yt = clamp(std::floor(t.yf), H - 1);
    t.xr = clamp(std::floor(t.xf) + 1, W - 1);
    t.yb = clamp(std::floor(t.yf) + 1, H - 1);
    return t;
  }

  template <class F>
  void for_each_pixel(const Variables& in, F&& f) const {
    const Shape& s = in[0]->shape();
    const int64_t N = s[0], C = s[1], H = s[2], W = s[3];
    const float* flow = in_data(in[1]);
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t y = 0; y < H; ++y)
          for (int64_t x = 0; x < W; ++x) {
            const int64_t fi = (n * 2) * H * W + y * W + x;
            Taps t = taps(x, y, flow[fi], flow[fi + H * W], H, W);
            f(((n * C + c) * H + y) * W + x, (n * C + c) * H * W, fi, t, W);
          }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* d = in_data(in[0]);
    float* y = out_data(out[0]);
    for_each_pixel(in, [&](int64_t o, int64_t base, int64_t, const Taps& t, int64_t W) {
      const float* dc = d + base;
      const float tl = dc[t.yt * W + t.xl], tr = dc[t.yt * W + t.xr];
      const float bl = dc[t.yb * W + t.xl], br = dc[t.yb * W + t.xr];
      const float a = t.xf - float(t.xl), b = t.yf - float(t.yt);
      const float upper = a * (tr - tl) + tl, lower = a * (br - bl) + bl;
      y[o] = b * (lower - upper) + upper;
    });
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* dy = out_grad(out[0]);
    const int64_t hw = in[0]->shape()[2] * in[0]->shape()[3];
    if (prop[0]) {
      float* gd = in_grad_zeroed(in[0], accum[0]);
      for_each_pixel(in, [&](int64_t o, int64_t base, int64_t, const Taps& t, int64_t W) {
        float* g = gd + base;
        const float a = t.xf - float(t.xl), b = t.yf - float(t.yt);
        g[t.yt * W + t.xl] += (1 - a) * (1 - b) * dy[o];
        g[t.yb * W + t.xl] += (1 - a) * b * dy[o];
        g[t.yt * W + t.xr] += a * (1 - b) * dy[o];
        g[t.yb * W + t.xr] += a * b * dy[o];
      });
    }
    if (prop[1]) {
      const float* d = in_data(in[0]);
      float* gf = in_grad_zeroed(in[1], accum[1]);
      for_each_pixel(in, [&](int64_t o, int64_t base, int64_t fi, const Taps& t, int64_t W) {
        const float* dc = d + base;
        const float tl = dc[t.yt * W + t.xl], tr = dc[t.yt * W + t.xr];
        const float bl = dc[t.yb * W + t.xl], br = dc[t.yb * W + t.xr];
        const float yb = float(t.yb), xr = float(t.xr);
        gf[fi] += dy[o] * ((yb - t.yf) * (tr - tl) + (1 - yb + t.yf) * (br - bl));
        gf[fi + hw] += dy[o] * ((xr - t.xf) * (bl - tl) + (1 - xr + t.xf) * (br - tr));
      });
    }
  }
};

}  // namespace

void register_warp_by_flow(OpRegistry& r) {
  register_cpu<WarpByFlow>(r, SchemaBuilder("WarpByFlow", "Geometric Neural Network Layers")
                                  .doc("bilinear warp of NCHW data by a per-pixel flow field")
                                  .in("data")
                                  .in("flow")
                                  .out("warped_image")
                                  .build());
}

}  // namespace nn::ops
