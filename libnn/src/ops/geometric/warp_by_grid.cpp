// WarpByGrid: samples (B, C, [D,] H, W) data at normalized grid points (x, y[, z]) in [-1, 1].
#include <cmath>
#include <string>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

enum class Pad { kZero, kRepeat, kReflect };

float unnormalize(float v, int64_t S, bool align) {
  return align ? (v + 1.f) * (float(S) - 1.f) / 2.f : ((v + 1.f) * float(S) - 1.f) / 2.f;
}

float repeat_index(float s, int64_t S) { return s < 0 ? 0.f : s > float(S - 1) ? float(S - 1) : s; }

// Mirrors s into [lo, hi]; `coef` receives d(result)/ds (+1 or -1).
float reflect(float s, float lo, float hi, float* coef) {
  const float len = hi - lo;
  *coef = 1.f;
  if (s >= lo && s <= hi) return s;
  const float d = s < lo ? lo - s : s - hi;
  const int n = int(d / len);
  const float r = d - float(n) * len;
  *coef = n % 2 == 0 ? -1.f : 1.f;
  if (s < lo) return n % 2 == 0 ? lo + r : hi - r;
  return n % 2 == 0 ? hi - r : lo + r;
}

// Source coordinate after padding, and d(coordinate)/d(normalized grid value).
float source_index(float g, int64_t S, Pad pad, bool align, float* dcoord) {
  const float s = unnormalize(g, S, align);
  const float scale = align ? (float(S) - 1.f) / 2.f : float(S) / 2.f;
  float coef = 1.f, f = s;
  if (pad == Pad::kRepeat) {
    coef = (s < 0 || s > float(S - 1)) ? 0.f : 1.f;
    f = repeat_index(s, S);
  } else if (pad == Pad::kReflect) {
    if (align) {
      f = reflect(s, 0.f, float(S - 1), &coef);
    } else {
      f = reflect(2.f * s, -1.f, 2.f * float(S) - 1.f, &coef) * 0.5f;
      coef *= (f < 0 || f > float(S - 1)) ? 0.f : 1.f;
      f = repeat_index(f, S);
    }
  }
  *dcoord = coef * scale;
  return f;
}

class WarpByGrid : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const Shape& gs = in[1]->shape();
    const std::string mode = attrs_.get_string("mode"), pad = attrs_.get_string("padding_mode");
    NN_CHECK(mode == "linear" || mode == "nearest")
        << "WarpByGrid: mode must be linear or nearest, got '" << mode << "'";
    NN_CHECK(pad == "zero" || pad == "repeat" || pad == "reflect")
        << "WarpByGrid: padding_mode must be zero, repeat or reflect, got '" << pad << "'";
    NN_CHECK(!attrs_.get_bool("channel_last")) << "WarpByGrid: channel_last=true is not supported";
    nd_ = int(gs.size()) - 2;
    NN_CHECK((nd_ == 2 || nd_ == 3) && xs.size() == gs.size() && gs.back() == nd_ && xs[0] == gs[0])
        << "WarpByGrid: x " << to_string(xs) << " must be (B, C, [D,] H, W) and grid " << to_string(gs)
        << " (B, [D,] H, W, 2 or 3) with the same batch size";
    linear_ = mode == "linear";
    pad_ = pad == "zero" ? Pad::kZero : pad == "repeat" ? Pad::kRepeat : Pad::kReflect;
    align_ = attrs_.get_bool("align_corners");
    Shape ys{xs[0], xs[1]};
    ys.insert(ys.end(), gs.begin() + 1, gs.end() - 1);
    out[0]->reshape(ys, true);
  }

  // Visits every (b, c, output point) with its source taps: f(out_index, grid_index, tap, weight, dweight[]).
  // tap is the flat input index or -1 outside the image; dweight[k] = d(weight)/d(grid component k).
  template <class F>
  void for_each_tap(const Variables& in, F&& f) const {
    const Shape& xs = in[0]->shape();
    const float* grid = in_data(in[1]);
    const int64_t B = xs[0], C = xs[1];
    const int64_t in_pts = shape_size(xs, 2, xs.size()), out_pts = in[1]->size() / (B * nd_);
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t p = 0; p < out_pts; ++p) {
        const float* g = grid + (b * out_pts + p) * nd_;
        // Per spatial dim (input order d; grid component nd_-1-d): first tap, fraction, d(coord)/d(grid).
        int64_t lo[3];
        float frac[3], dcoord[3];
        for (int d = 0; d < nd_; ++d) {
          const int64_t S = xs[2 + d];
          const float s = source_index(g[nd_ - 1 - d], S, pad_, align_, &dcoord[d]);
          if (linear_) {
            lo[d] = int64_t(std::floor(s));
            frac[d] = s - float(lo[d]);
          } else {
            lo[d] = int64_t(std::round(s));
            frac[d] = 0.f;
          }
        }
        const int corners = linear_ ? 1 << nd_ : 1;
        for (int k = 0; k < corners; ++k) {
          float w = 1.f, dw[3] = {1.f, 1.f, 1.f};
          int64_t idx = 0;
          bool inside = true;
          for (int d = 0; d < nd_; ++d) {
            const bool second = (k >> (nd_ - 1 - d)) & 1;
            const int64_t i = lo[d] + (second ? 1 : 0);
            inside = inside && i >= 0 && i < xs[2 + d];
            idx = idx * xs[2 + d] + i;
            const float wd = second ? frac[d] : 1.f - frac[d];
            for (int e = 0; e < nd_; ++e) dw[e] *= e == d ? (second ? 1.f : -1.f) * dcoord[d] : wd;
            w *= wd;
          }
          if (!inside) continue;
          for (int64_t c = 0; c < C; ++c)
            f((b * C + c) * out_pts + p, (b * out_pts + p) * nd_, (b * C + c) * in_pts + idx, w, dw);
        }
      }
    }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    std::fill(y, y + out[0]->size(), 0.f);
    for_each_tap(in, [&](int64_t o, int64_t, int64_t src, float w, const float*) { y[o] += w * x[src]; });
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    NN_CHECK(!prop[1] || linear_) << "WarpByGrid: no gradient w.r.t. the grid in nearest mode; use linear";
    const float* dy = out_grad(out[0]);
    if (prop[0]) {
      float* dx = in_grad_zeroed(in[0], accum[0]);
      for_each_tap(in, [&](int64_t o, int64_t, int64_t src, float w, const float*) { dx[src] += w * dy[o]; });
    }
    if (prop[1]) {
      const float* x = in_data(in[0]);
      float* dg = in_grad_zeroed(in[1], accum[1]);
      for_each_tap(in, [&](int64_t o, int64_t gi, int64_t src, float, const float* dw) {
        for (int d = 0; d < nd_; ++d) dg[gi + nd_ - 1 - d] += dy[o] * x[src] * dw[d];
      });
    }
  }

 private:
  int nd_ = 2;
  bool linear_ = true, align_ = false;
  Pad pad_ = Pad::kZero;
};

}  // namespace

void register_warp_by_grid(OpRegistry& r) {
  register_cpu<WarpByGrid>(r, SchemaBuilder("WarpByGrid", "Geometric Neural Network Layers")
                                  .doc("samples the input at normalized grid points (spatial transformer)")
                                  .in("x")
                                  .in("grid")
                                  .arg("mode", AttrType::kString, AttrValue(std::string("linear")))
                                  .arg("padding_mode", AttrType::kString, AttrValue(std::string("zero")))
                                  .arg("align_corners", AttrType::kBool, AttrValue(false))
                                  .arg("channel_last", AttrType::kBool, AttrValue(false))
                                  .out("y")
                                  .build());
}

}  // namespace nn::ops
