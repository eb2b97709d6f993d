// Recurrent engine: per layer and direction, x_t and h_{t-1} are multiplied by
// the two column blocks of the cell's weight (SGEMM), combined by the cell, and
// replayed backwards through time for the gradients.
#include "ops/nn_layer/recurrent_core.hpp"

#include <algorithm>
#include <cmath>

#include "ops/detail/op_common.hpp"
#include "ops/nn_layer/conv_core.hpp"

namespace nn::ops {
namespace {

inline float sigmoid(float v) { return 1.f / (1.f + std::exp(-v)); }

}  // namespace

void RecurrentEngine::setup(const RecurrentDims& dims, double dropout, bool training) {
  d_ = dims;
  dropout_ = dropout;
  training_ = training;
  const int64_t T = d_.seq, B = d_.batch, H = d_.hidden, GH = d_.gates() * H;
  outputs_.assign(size_t(d_.layers), std::vector<float>(size_t(T * B * d_.dirs * H)));
  inputs_.assign(size_t(d_.layers), {});
  masks_.assign(size_t(d_.layers), {});
  traces_.assign(size_t(d_.layers * d_.dirs), {});
  for (auto& tr : traces_) {
    tr.h.assign(size_t((T + 1) * B * H), 0.f);
    if (d_.kind == CellKind::kLstm) tr.c.assign(size_t((T + 1) * B * H), 0.f);
    tr.gates.assign(size_t(T * B * GH), 0.f);
    if (d_.kind == CellKind::kGru) tr.ah.assign(size_t(T * B * H), 0.f);
  }
  pre_x_.assign(size_t(B * GH), 0.f);
  pre_h_.assign(size_t(B * GH), 0.f);
}

const float* RecurrentEngine::weight_of(const RecurrentParams& p, int64_t layer, int64_t dir) const {
  const int64_t GH = d_.gates() * d_.hidden;
  if (layer == 0) return p.w0 + dir * GH * (d_.input + d_.hidden);
  return p.w + ((layer - 1) * d_.dirs + dir) * GH * (d_.dirs * d_.hidden + d_.hidden);
}

float* RecurrentEngine::weight_grad_of(const RecurrentGrads& g, int64_t layer, int64_t dir) const {
  const int64_t GH = d_.gates() * d_.hidden;
  if (layer == 0) return g.dw0 ? g.dw0 + dir * GH * (d_.input + d_.hidden) : nullptr;
  return g.dw ? g.dw + ((layer - 1) * d_.dirs + dir) * GH * (d_.dirs * d_.hidden + d_.hidden) : nullptr;
}

const float* RecurrentEngine::layer_input(const RecurrentParams& p, int64_t layer) const {
  if (layer == 0) return p.x;
  if (!masks_[size_t(layer)].empty()) return inputs_[size_t(layer)].data();
  return outputs_[size_t(layer - 1)].data();
}

void RecurrentEngine::forward(const RecurrentParams& p, float* y, float* hn, float* cn, RandomEngine& rng) {
  const int64_t B = d_.batch, H = d_.hidden, T = d_.seq;
  const bool drop = training_ && dropout_ > 0.0;
  for (int64_t l = 0; l < d_.layers; ++l) {
    if (l > 0 && drop) {
      const auto& prev = outputs_[size_t(l - 1)];
      auto& mask = masks_[size_t(l)];
      auto& in = inputs_[size_t(l)];
      mask.resize(prev.size());
      in.resize(prev.size());
      std::bernoulli_distribution keep(1.0 - dropout_);
      const float scale = float(1.0 / (1.0 - dropout_));
      for (size_t i = 0; i < prev.size(); ++i) {
        mask[i] = keep(rng) ? scale : 0.f;
        in[i] = prev[i] * mask[i];
      }
    } else {
      masks_[size_t(l)].clear();
    }
    for (int64_t dir = 0; dir < d_.dirs; ++dir) run_direction(p, l, dir, outputs_[size_t(l)].data());
  }
  const auto& top = outputs_.back();
  std::copy(top.begin(), top.end(), y);
  for (int64_t s = 0; s < d_.layers * d_.dirs; ++s) {
    const auto& tr = traces_[size_t(s)];
    std::copy_n(tr.h.data() + T * B * H, B * H, hn + s * B * H);
    if (cn) std::copy_n(tr.c.data() + T * B * H, B * H, cn + s * B * H);
  }
}

void RecurrentEngine::run_direction(const RecurrentParams& p, int64_t layer, int64_t dir, float* y_layer) {
  const int64_t T = d_.seq, B = d_.batch, H = d_.hidden, G = d_.gates(), GH = G * H, D = d_.dirs;
  const int64_t in = d_.layer_input(layer), K = in + H, R = d_.bias_rows();
  const float* x = layer_input(p, layer);
  const float* w = weight_of(p, layer, dir);
  const float* bias = p.b ? p.b + (layer * D + dir) * R * H : nullptr;
  auto bv = [&](int64_t row, int64_t j) { return bias ? bias[row * H + j] : 0.f; };
  Trace& tr = traces_[size_t(layer * D + dir)];
  const int64_t state = (layer * D + dir) * B * H;
  std::copy_n(p.h0 + state, B * H, tr.h.data());
  if (d_.kind == CellKind::kLstm) std::copy_n(p.c0 + state, B * H, tr.c.data());
  float* px = pre_x_.data();
  float* ph = pre_h_.data();
  for (int64_t k = 0; k < T; ++k) {
    const int64_t t = dir == 0 ? k : T - 1 - k;
    const float* xt = x + t * B * in;
    const float* hp = tr.h.data() + k * B * H;
    float* hn = tr.h.data() + (k + 1) * B * H;
    float* gates = tr.gates.data() + k * B * GH;
    sgemm(false, true, B, GH, in, 1.f, xt, in, w, K, 0.f, px, GH);
    sgemm(false, true, B, GH, H, 1.f, hp, H, w + in, K, 0.f, ph, GH);
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t j = 0; j < H; ++j) {
        const int64_t o = b * GH + j, s = b * H + j;
        auto pre = [&](int64_t g) { return px[o + g * H] + ph[o + g * H] + bv(g, j); };
        float h = 0.f;
        switch (d_.kind) {
          case CellKind::kRnnTanh: h = gates[o] = std::tanh(pre(0)); break;
          case CellKind::kRnnRelu: h = gates[o] = std::max(pre(0), 0.f); break;
          case CellKind::kLstm: {
            const float i = sigmoid(pre(0)), f = sigmoid(pre(1)), g = std::tanh(pre(2)), og = sigmoid(pre(3));
            const float c = f * tr.c[size_t(k * B * H + s)] + i * g;
            tr.c[size_t((k + 1) * B * H + s)] = c;
            gates[o] = i, gates[o + H] = f, gates[o + 2 * H] = g, gates[o + 3 * H] = og;
            h = og * std::tanh(c);
            break;
          }
          case CellKind::kGru: {
            const float r = sigmoid(pre(0)), z = sigmoid(pre(1));
            const float ah = ph[o + 2 * H] + bv(3, j);
            const float n = std::tanh(px[o + 2 * H] + bv(2, j) + r * ah);
            tr.ah[size_t(k * B * H + s)] = ah;
            gates[o] = r, gates[o + H] = z, gates[o + 2 * H] = n;
            h = (1.f - z) * n + z * hp[s];
            break;
          }
        }
        hn[s] = h;
        y_layer[(t * B + b) * D * H + dir * H + j] = h;
      }
    }
  }
}

void RecurrentEngine::backward(const RecurrentParams& p, const float* dy, const float* dhn, const float* dcn,
                               const RecurrentGrads& g) {
  const int64_t T = d_.seq, B = d_.batch;
  std::vector<float> dy_layer(dy, dy + T * B * d_.dirs * d_.hidden), dx_local;
  for (int64_t l = d_.layers - 1; l >= 0; --l) {
    float* dx = g.dx;
    if (l > 0) {
      dx_local.assign(size_t(T * B * d_.layer_input(l)), 0.f);
      dx = dx_local.data();
    }
    for (int64_t dir = 0; dir < d_.dirs; ++dir) backprop_direction(p, l, dir, dy_layer.data(), dhn, dcn, g, dx);
    if (l > 0) {
      const auto& mask = masks_[size_t(l)];
      if (!mask.empty())
        for (size_t i = 0; i < dx_local.size(); ++i) dx_local[i] *= mask[i];
      dy_layer.swap(dx_local);
    }
  }
}

void RecurrentEngine::backprop_direction(const RecurrentParams& p, int64_t layer, int64_t dir,
                                         const float* dy_layer, const float* dhn, const float* dcn,
                                         const RecurrentGrads& g, float* dx_layer) {
  const int64_t T = d_.seq, B = d_.batch, H = d_.hidden, G = d_.gates(), GH = G * H, D = d_.dirs;
  const int64_t in = d_.layer_input(layer), K = in + H, R = d_.bias_rows(), BH = B * H;
  const bool lstm = d_.kind == CellKind::kLstm, gru = d_.kind == CellKind::kGru;
  const float* x = layer_input(p, layer);
  const float* w = weight_of(p, layer, dir);
  float* dw = weight_grad_of(g, layer, dir);
  float* db = g.db ? g.db + (layer * D + dir) * R * H : nullptr;
  const Trace& tr = traces_[size_t(layer * D + dir)];
  const int64_t state = (layer * D + dir) * BH;
  std::vector<float> dh(size_t(BH), 0.f), dc(size_t(BH), 0.f), dh_next(size_t(BH), 0.f);
  std::vector<float> dax(size_t(B * GH), 0.f), dah(size_t(B * GH), 0.f);
  if (dhn) std::copy_n(dhn + state, BH, dh.data());
  if (lstm && dcn) std::copy_n(dcn + state, BH, dc.data());
  for (int64_t k = T - 1; k >= 0; --k) {
    const int64_t t = dir == 0 ? k : T - 1 - k;
    const float* xt = x + t * B * in;
    const float* hp = tr.h.data() + k * BH;
    const float* gates = tr.gates.data() + k * B * GH;
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t j = 0; j < H; ++j) {
        const int64_t o = b * GH + j, s = b * H + j;
        const float gh = dh[size_t(s)] + dy_layer[(t * B + b) * D * H + dir * H + j];
        float direct = 0.f;
        switch (d_.kind) {
          case CellKind::kRnnTanh: dax[o] = gh * (1.f - gates[o] * gates[o]); break;
          case CellKind::kRnnRelu: dax[o] = gates[o] > 0.f ? gh : 0.f; break;
          case CellKind::kLstm: {
            const float i = gates[o], f = gates[o + H], gg = gates[o + 2 * H], og = gates[o + 3 * H];
            const float tc = std::tanh(tr.c[size_t((k + 1) * BH + s)]);
            const float dct = dc[size_t(s)] + gh * og * (1.f - tc * tc);
            dax[o] = dct * gg * i * (1.f - i);
            dax[o + H] = dct * tr.c[size_t(k * BH + s)] * f * (1.f - f);
            dax[o + 2 * H] = dct * i * (1.f - gg * gg);
            dax[o + 3 * H] = gh * tc * og * (1.f - og);
            dc[size_t(s)] = dct * f;
            break;
          }
          case CellKind::kGru: {
            const float r = gates[o], z = gates[o + H], n = gates[o + 2 * H];
            const float dan = gh * (1.f - z) * (1.f - n * n);
            const float dr = dan * tr.ah[size_t(k * BH + s)];
            dax[o] = dah[o] = dr * r * (1.f - r);
            dax[o + H] = dah[o + H] = gh * (hp[s] - n) * z * (1.f - z);
            dax[o + 2 * H] = dan;
            dah[o + 2 * H] = dan * r;
            direct = gh * z;
            break;
          }
        }
        dh_next[size_t(s)] = direct;
      }
    }
    // Every cell but the GRU sees x_t and h_{t-1} through the same
    // pre-activation.
    const float* dah_used = gru ? dah.data() : dax.data();
    if (dw) {
      sgemm(true, false, GH, in, B, 1.f, dax.data(), GH, xt, in, 1.f, dw, K);
      sgemm(true, false, GH, H, B, 1.f, dah_used, GH, hp, H, 1.f, dw + in, K);
    }
    if (db) {
      for (int64_t b = 0; b < B; ++b) {
        add_into(db, dax.data() + b * GH, gru ? 3 * H : GH);
        if (gru) add_into(db + 3 * H, dah.data() + b * GH + 2 * H, H);
      }
    }
    if (dx_layer) sgemm(false, false, B, in, GH, 1.f, dax.data(), GH, w, K, 1.f, dx_layer + t * B * in, in);
    sgemm(false, false, B, H, GH, 1.f, dah_used, GH, w + in, K, 1.f, dh_next.data(), H);
    dh.swap(dh_next);
  }
  if (g.dh0) add_into(g.dh0 + state, dh.data(), BH);
  if (lstm && g.dc0) add_into(g.dc0 + state, dc.data(), BH);
}

}  // namespace nn::ops
