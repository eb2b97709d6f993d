// STFT and ISTFT against direct double-precision sums (windowed DFT per frame, overlap-add with the
// squared-window normalisation); the as_*_backward variants against the adjoint of the other reference.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "op_tester.hpp"

using namespace nn::test;

namespace {

struct Cfg {
  int64_t window_size, stride, fft_size;
  std::string window_type;
  bool center;
  std::string pad_mode;
};

nn::Attrs attrs_of(const Cfg& c, const char* flag, bool value) {
  return {{"window_size", c.window_size},
          {"stride", c.stride},
          {"fft_size", c.fft_size},
          {"window_type", c.window_type},
          {"center", c.center},
          {"pad_mode", c.pad_mode},
          {flag, value}};
}

std::vector<double> window_of(const Cfg& c) {
  std::vector<double> w(size_t(c.fft_size), 0.0);
  const int64_t left = (c.fft_size - c.window_size) / 2;
  for (int64_t i = 0; i < c.window_size; ++i) {
    const double ph = 2 * M_PI * i / double(c.window_size);
    w[size_t(left + i)] = c.window_type == "hanning"   ? 0.5 * (1 - std::cos(ph))
                          : c.window_type == "hamming" ? 0.54 - 0.46 * std::cos(ph)
                                                       : 1.0;
  }
  return w;
}

// numpy-style padding of index i (may be outside [0, n)); -1 means a constant zero.
int64_t padded_index(const std::string& mode, int64_t i, int64_t n) {
  if (i >= 0 && i < n) return i;
  if (mode == "constant") return -1;
  if (mode == "repeat") return i < 0 ? 0 : n - 1;
  while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
  return i;
}

// Plain STFT: (batch, len) -> y_r, y_i of (batch, fft/2+1, frames).
std::vector<RefArray> stft_plain(const Cfg& c, const RefArray& x) {
  const int64_t batch = x.shape[0], len = x.shape[1], half = c.fft_size / 2, bins = half + 1;
  const int64_t plen = c.center ? len + 2 * half : len, frames = (plen - c.fft_size) / c.stride + 1;
  const auto w = window_of(c);
  RefArray yr{{batch, bins, frames}, std::vector<double>(size_t(batch * bins * frames))}, yi = yr;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t k = 0; k < bins; ++k)
      for (int64_t f = 0; f < frames; ++f) {
        double re = 0, im = 0;
        for (int64_t t = 0; t < c.fft_size; ++t) {
          const int64_t src = padded_index(c.pad_mode, f * c.stride + t - (c.center ? half : 0), len);
          const double v = src < 0 ? 0.0 : x.data[size_t(b * len + src)] * w[size_t(t)];
          re += v * std::cos(2 * M_PI * k * t / double(c.fft_size));
          im -= v * std::sin(2 * M_PI * k * t / double(c.fft_size));
        }
        yr.data[size_t((b * bins + k) * frames + f)] = re;
        yi.data[size_t((b * bins + k) * frames + f)] = im;
      }
  return {yr, yi};
}

// Plain ISTFT: inverse real DFT of each frame, windowed overlap-add divided by the summed squared window.
std::vector<RefArray> istft_plain(const Cfg& c, const RefArray& yr, const RefArray& yi) {
  const int64_t batch = yr.shape[0], bins = yr.shape[1], frames = yr.shape[2], n = c.fft_size;
  const int64_t full = (frames - 1) * c.stride + n, lo = c.center ? n / 2 : 0, len = full - 2 * lo;
  const auto w = window_of(c);
  std::vector<double> z(size_t(batch * full), 0.0), norm(size_t(full), 0.0);
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t t = 0; t < n; ++t) norm[size_t(f * c.stride + t)] += w[size_t(t)] * w[size_t(t)];
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t f = 0; f < frames; ++f)
      for (int64_t t = 0; t < n; ++t) {
        double s = 0;
        for (int64_t k = 0; k < bins; ++k) {
          const double a = (k == 0 || k == n / 2) ? 1.0 / n : 2.0 / n;
          const size_t idx = size_t((b * bins + k) * frames + f);
          s += a * (yr.data[idx] * std::cos(2 * M_PI * k * t / n) - yi.data[idx] * std::sin(2 * M_PI * k * t / n));
        }
        z[size_t(b * full + f * c.stride + t)] += s * w[size_t(t)];
      }
  RefArray x{{batch, len}, std::vector<double>(size_t(batch * len))};
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < len; ++i)
      x.data[size_t(b * len + i)] = z[size_t(b * full + lo + i)] / norm[size_t(lo + i)];
  return {x};
}

// Adjoint of a linear map given as a function of its inputs: adj(g)_j = <g, A e_j>.
std::vector<RefArray> adjoint(const std::function<std::vector<RefArray>(const RefInputs&)>& a,
                              const RefInputs& shapes_of_a_inputs, const std::vector<RefArray>& g) {
  std::vector<RefArray> out;
  RefInputs basis = shapes_of_a_inputs;
  for (auto& v : basis) std::fill(v.data.begin(), v.data.end(), 0.0);
  for (size_t i = 0; i < basis.size(); ++i) {
    RefArray r{basis[i].shape, std::vector<double>(basis[i].data.size())};
    for (size_t j = 0; j < basis[i].data.size(); ++j) {
      basis[i].data[j] = 1.0;
      auto col = a(basis);
      basis[i].data[j] = 0.0;
      double s = 0;
      for (size_t o = 0; o < col.size(); ++o)
        for (size_t k = 0; k < col[o].data.size(); ++k) s += g[o].data[k] * col[o].data[k];
      r.data[j] = s;
    }
    out.push_back(r);
  }
  return out;
}

Reference stft_ref(const Cfg& c, bool as_istft_backward) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    if (!as_istft_backward) return stft_plain(c, in[0]);
    auto spectra = stft_plain(c, in[0]);  // only for the shapes of ISTFT's inputs
    auto istft = [&](const RefInputs& y) { return istft_plain(c, y[0], y[1]); };
    return adjoint(istft, {spectra[0], spectra[1]}, {in[0]});
  };
}

Reference istft_ref(const Cfg& c, bool as_stft_backward, int64_t signal_len) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    if (!as_stft_backward) return istft_plain(c, in[0], in[1]);
    auto stft = [&](const RefInputs& x) { return stft_plain(c, x[0]); };
    RefArray x{{in[0].shape[0], signal_len}, std::vector<double>(size_t(in[0].shape[0] * signal_len))};
    return adjoint(stft, {x}, {in[0], in[1]});
  };
}

}  // namespace

TEST(STFT, MatchesWindowedDft) {
  const Cfg cfgs[] = {{4, 2, 4, "hanning", true, "reflect"},
                      {4, 2, 6, "hamming", true, "constant"},
                      {4, 1, 4, "rectangular", false, "reflect"},
                      {3, 2, 4, "hanning", true, "repeat"}};
  uint32_t seed = 1;
  for (const auto& c : cfgs) {
    std::mt19937 rng(seed++);
    run_op_test(
        {"STFT", attrs_of(c, "as_istft_backward", false), {random_input({2, 9}, rng)}, stft_ref(c, false)});
  }
}

TEST(STFT, AsIstftBackwardIsIstftAdjoint) {
  const Cfg cfgs[] = {{4, 2, 4, "hanning", true, "constant"}, {4, 2, 4, "hamming", false, "constant"}};
  uint32_t seed = 11;
  for (const auto& c : cfgs) {
    std::mt19937 rng(seed++);
    run_op_test({"STFT", attrs_of(c, "as_istft_backward", true), {random_input({1, 8}, rng)}, stft_ref(c, true)});
  }
  std::mt19937 rng(3);
  Cfg bad{4, 2, 4, "hanning", true, "reflect"};
  EXPECT_ANY_THROW(run_op_test(
      {"STFT", attrs_of(bad, "as_istft_backward", true), {random_input({1, 8}, rng)}, stft_ref(bad, false)}));
}

TEST(ISTFT, InvertsStft) {
  const Cfg cfgs[] = {{4, 2, 4, "hanning", true, "constant"},
                      {4, 2, 6, "hamming", true, "constant"},
                      {4, 1, 4, "rectangular", false, "constant"}};
  uint32_t seed = 21;
  for (const auto& c : cfgs) {
    std::mt19937 rng(seed++);
    const int64_t bins = c.fft_size / 2 + 1, frames = 4;
    run_op_test({"ISTFT",
                 attrs_of(c, "as_stft_backward", false),
                 {random_input({2, bins, frames}, rng), random_input({2, bins, frames}, rng)},
                 istft_ref(c, false, 0)});
  }
}

TEST(ISTFT, AsStftBackwardIsStftAdjoint) {
  const Cfg cfgs[] = {{4, 2, 4, "hanning", true, "reflect"}, {4, 2, 4, "hamming", false, "reflect"}};
  uint32_t seed = 31;
  for (const auto& c : cfgs) {
    std::mt19937 rng(seed++);
    const int64_t bins = c.fft_size / 2 + 1, frames = 4;
    const int64_t len = (frames - 1) * c.stride + c.fft_size - (c.center ? c.fft_size : 0);
    run_op_test({"ISTFT",
                 attrs_of(c, "as_stft_backward", true),
                 {random_input({1, bins, frames}, rng), random_input({1, bins, frames}, rng)},
                 istft_ref(c, true, len)});
  }
}

TEST(ISTFT, RejectsNolaViolation) {
  // A periodic Hann window of 4 taps starts with a zero, so without centring sample 0 gets no overlap.
  Cfg c{4, 2, 4, "hanning", false, "constant"};
  std::mt19937 rng(5);
  EXPECT_ANY_THROW(run_op_test({"ISTFT",
                                attrs_of(c, "as_stft_backward", false),
                                {random_input({1, 3, 3}, rng), random_input({1, 3, 3}, rng)},
                                istft_ref(c, false, 0)}));
}
