// Double-precision reference for RNN / LSTM / GRU written as upstream's test
// does it: a loop over layers, directions and time steps of a cell on
// concat(x_t, h) with nnabla's weight and bias layouts.
#pragma once
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"

namespace rnn_ref {

using nn::test::RefArray;
using nn::test::RefInputs;
enum class Cell { kTanh, kRelu, kLstm, kGru };

struct Spec {
  Cell cell = Cell::kTanh;
  int64_t layers = 1;
  bool bidirectional = false;
  bool bias = true;
};

inline int64_t gates(Cell c) { return c == Cell::kLstm ? 4 : c == Cell::kGru ? 3 : 1; }
inline int64_t bias_rows(Cell c) { return c == Cell::kLstm || c == Cell::kGru ? 4 : 1; }
inline double sigm(double v) { return 1.0 / (1.0 + std::exp(-v)); }

// One step for one batch row: x (in), h and c (H) -> new h, c. w: (G, H, in +
// H), b: (R, H) or null.
inline void cell_step(Cell cell, int64_t in, int64_t H, const double* w, const double* b, const double* x,
                      std::vector<double>& h, std::vector<double>& c) {
  const int64_t K = in + H;
  auto dot = [&](int64_t g, int64_t j, int64_t from, int64_t to) {
    double s = 0;
    for (int64_t k = from; k < to; ++k) s += w[(g * H + j) * K + k] * (k < in ? x[k] : h[size_t(k - in)]);
    return s;
  };
  auto bias = [&](int64_t row, int64_t j) { return b ? b[row * H + j] : 0.0; };
  std::vector<double> nh(size_t(H), 0.0), nc = c;
  for (int64_t j = 0; j < H; ++j) {
    if (cell == Cell::kTanh || cell == Cell::kRelu) {
      const double a = dot(0, j, 0, K) + bias(0, j);
      nh[size_t(j)] = cell == Cell::kTanh ? std::tanh(a) : std::max(a, 0.0);
    } else if (cell == Cell::kLstm) {
      const double i = sigm(dot(0, j, 0, K) + bias(0, j)), f = sigm(dot(1, j, 0, K) + bias(1, j));
      const double g = std::tanh(dot(2, j, 0, K) + bias(2, j)), o = sigm(dot(3, j, 0, K) + bias(3, j));
      nc[size_t(j)] = f * c[size_t(j)] + i * g;
      nh[size_t(j)] = o * std::tanh(nc[size_t(j)]);
    } else {
      const double r = sigm(dot(0, j, 0, K) + bias(0, j)), z = sigm(dot(1, j, 0, K) + bias(1, j));
      const double n = std::tanh(dot(2, j, 0, in) + bias(2, j) + r * (dot(2, j, in, K) + bias(3, j)));
      nh[size_t(j)] = (1 - z) * n + z * h[size_t(j)];
    }
  }
  h = nh;
  c = nc;
}

// inputs: x (T, B, I), h (L, D, B, H), [c], w0, [w when layers > 1], [b].
// Outputs y, h_n [, c_n].
inline std::vector<RefArray> run(const RefInputs& v, const Spec& s) {
  const bool lstm = s.cell == Cell::kLstm;
  const RefArray& x = v[0];
  const RefArray& h0 = v[1];
  const size_t iw0 = lstm ? 3 : 2;
  const RefArray& w0 = v[iw0];
  const RefArray* w = s.layers > 1 ? &v[iw0 + 1] : nullptr;
  const RefArray* b = s.bias ? &v[iw0 + (s.layers > 1 ? 2 : 1)] : nullptr;
  const int64_t T = x.shape[0], B = x.shape[1], I = x.shape[2], H = h0.shape[3], L = s.layers;
  const int64_t D = s.bidirectional ? 2 : 1, G = gates(s.cell), R = bias_rows(s.cell);
  std::vector<double> seq = x.data;  // current layer input (T, B, in)
  int64_t in = I;
  RefArray hn{h0.shape, std::vector<double>(h0.data.size())}, cn = hn;
  for (int64_t l = 0; l < L; ++l) {
    std::vector<double> out(size_t(T * B * D * H));
    for (int64_t d = 0; d < D; ++d) {
      const int64_t K = in + H;
      const double* wl = l == 0 ? w0.data.data() + d * G * H * K : w->data.data() + ((l - 1) * D + d) * G * H * K;
      const double* bl = b ? b->data.data() + (l * D + d) * R * H : nullptr;
      for (int64_t bi = 0; bi < B; ++bi) {
        const int64_t st = ((l * D + d) * B + bi) * H;
        std::vector<double> h(h0.data.begin() + st, h0.data.begin() + st + H), c(size_t(H), 0.0);
        if (lstm) c.assign(v[2].data.begin() + st, v[2].data.begin() + st + H);
        for (int64_t k = 0; k < T; ++k) {
          const int64_t t = d == 0 ? k : T - 1 - k;
          cell_step(s.cell, in, H, wl, bl, seq.data() + (t * B + bi) * in, h, c);
          for (int64_t j = 0; j < H; ++j) out[size_t((t * B + bi) * D * H + d * H + j)] = h[size_t(j)];
        }
        for (int64_t j = 0; j < H; ++j)
          hn.data[size_t(st + j)] = h[size_t(j)], cn.data[size_t(st + j)] = c[size_t(j)];
      }
    }
    seq = out;
    in = D * H;
  }
  std::vector<RefArray> res{{{T, B, D * H}, seq}, hn};
  if (lstm) res.push_back(cn);
  return res;
}

// Builds random inputs for a spec and runs the op test.
inline void check(const char* type, const Spec& s, int64_t T, int64_t B, int64_t I, int64_t H, uint32_t seed,
                  const nn::Attrs& extra = {}) {
  std::mt19937 rng(seed);
  const int64_t D = s.bidirectional ? 2 : 1, G = gates(s.cell), L = s.layers;
  auto with_gates = [&](nn::Shape head, int64_t last) {
    if (G > 1) head.push_back(G);
    head.push_back(H);
    head.push_back(last);
    return head;
  };
  std::vector<RefArray> in{nn::test::random_input({T, B, I}, rng), nn::test::random_input({L, D, B, H}, rng)};
  if (s.cell == Cell::kLstm) in.push_back(nn::test::random_input({L, D, B, H}, rng));
  in.push_back(nn::test::random_input(with_gates({D}, I + H), rng));
  if (L > 1) in.push_back(nn::test::random_input(with_gates({L - 1, D}, D * H + H), rng));
  if (s.bias) {
    nn::Shape bs{L, D};
    if (bias_rows(s.cell) > 1) bs.push_back(bias_rows(s.cell));
    bs.push_back(H);
    in.push_back(nn::test::random_input(bs, rng));
  }
  nn::Attrs a = extra;
  a.set("num_layers", L);
  a.set("bidirectional", s.bidirectional);
  if (s.cell == Cell::kRelu) a.set("nonlinearity", std::string("relu"));
  nn::test::OpTestCase tc{type, a, in, [s](const RefInputs& v, const nn::Attrs&) { return run(v, s); }};
  nn::test::run_op_test(tc);
}

}  // namespace rnn_ref
