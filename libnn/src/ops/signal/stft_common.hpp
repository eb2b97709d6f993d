// Shared pieces of STFT and ISTFT: window, 1-D padding of the signal, overlap-added squared window, and
// framed analysis / synthesis with per-bin weights (nnabla's convolution / deconvolution formulation).
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "nn/core/error.hpp"

namespace nn::ops::stft {

struct Params {
  int64_t window_size = 0, stride = 0, fft_size = 0;
  std::string window_type, pad_mode;
  bool center = true;
  int64_t bins() const { return fft_size / 2 + 1; }
  int64_t half() const { return fft_size / 2; }
};

inline void check_params(const char* fn, const Params& p) {
  NN_CHECK(p.window_type == "hanning" || p.window_type == "hamming" || p.window_type == "rectangular")
      << fn << ": window_type must be hanning, hamming or rectangular, got '" << p.window_type << "'";
  NN_CHECK(p.window_size > 0 && p.stride > 0)
      << fn << ": window_size (" << p.window_size << ") and stride (" << p.stride << ") must be positive";
  NN_CHECK(p.fft_size >= p.window_size)
      << fn << ": fft_size (" << p.fft_size << ") must be at least window_size (" << p.window_size << ")";
  NN_CHECK(p.pad_mode == "constant" || p.pad_mode == "reflect" || p.pad_mode == "repeat")
      << fn << ": pad_mode must be constant, reflect or repeat, got '" << p.pad_mode << "'";
}

// Periodic window of window_size, centred in fft_size with zeros around.
inline std::vector<double> window(const Params& p) {
  std::vector<double> w(static_cast<size_t>(p.fft_size), 0.0);
  const int64_t left = (p.fft_size - p.window_size) / 2;
  for (int64_t i = 0; i < p.window_size; ++i) {
    const double c = std::cos(2.0 * M_PI * double(i) / double(p.window_size));
    w[size_t(left + i)] = p.window_type == "hanning"   ? 0.5 - 0.5 * c
                          : p.window_type == "hamming" ? 0.54 - 0.46 * c
                                                       : 1.0;
  }
  return w;
}

// Per bin w and tap t: weights of the real and imaginary parts. Analysis (STFT): win*cos, -win*sin.
// Synthesis (ISTFT): alpha_w*win*cos, -alpha_w*win*sin with alpha = 1/N at DC and Nyquist, else 2/N.
inline void weights(const Params& p, bool synthesis, std::vector<double>& wr, std::vector<double>& wi) {
  const auto win = window(p);
  const int64_t n = p.fft_size;
  wr.assign(size_t(p.bins() * n), 0.0);
  wi.assign(size_t(p.bins() * n), 0.0);
  for (int64_t w = 0; w < p.bins(); ++w) {
    const double alpha = !synthesis ? 1.0 : (w == 0 || w == n / 2 ? 1.0 : 2.0) / double(n);
    for (int64_t t = 0; t < n; ++t) {
      const double angle = 2.0 * M_PI * double((w * t) % n) / double(n);
      wr[size_t(w * n + t)] = alpha * win[size_t(t)] * std::cos(angle);
      wi[size_t(w * n + t)] = -alpha * win[size_t(t)] * std::sin(angle);
    }
  }
}

// Overlap-added squared window over a signal of `length` samples (frames at multiples of stride).
inline std::vector<double> inv_window(const Params& p, int64_t length) {
  const auto win = window(p);
  std::vector<double> iw(static_cast<size_t>(length), 0.0);
  for (int64_t i = 0; i + p.fft_size <= length; i += p.stride)
    for (int64_t j = 0; j < p.fft_size; ++j) iw[size_t(i + j)] += win[size_t(j)] * win[size_t(j)];
  return iw;
}

// Source index in [0, n) of padded position i in [-pad, n + pad) for reflect / repeat; -1 for constant.
inline int64_t pad_source(const std::string& mode, int64_t i, int64_t n) {
  if (i >= 0 && i < n) return i;
  if (mode == "constant") return -1;
  if (mode == "repeat") return i < 0 ? 0 : n - 1;
  const int64_t period = 2 * (n - 1);  // reflect without repeating the edge
  if (period == 0) return 0;
  int64_t m = ((i % period) + period) % period;
  return m < n ? m : period - m;
}

// Pads each of `batch` rows of length n by `pad` on both sides (forward), or folds a padded gradient back
// onto the rows (adjoint, adding into dst).
inline void pad_rows(const std::string& mode, const double* src, double* dst, int64_t batch, int64_t n,
                     int64_t pad) {
  const int64_t np = n + 2 * pad;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < np; ++i) {
      const int64_t s = pad_source(mode, i - pad, n);
      dst[b * np + i] = s < 0 ? 0.0 : src[b * n + s];
    }
}
inline void unpad_rows_adjoint(const std::string& mode, const double* src, double* dst, int64_t batch, int64_t n,
                               int64_t pad) {
  const int64_t np = n + 2 * pad;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < np; ++i) {
      const int64_t s = pad_source(mode, i - pad, n);
      if (s >= 0) dst[b * n + s] += src[b * np + i];
    }
}

// Analysis: y_r/y_i[b, w, f] = sum_t x[b, f*stride + t] * wr/wi[w, t]; x rows have `length` samples.
inline void analyze(const Params& p, const std::vector<double>& wr, const std::vector<double>& wi, const double* x,
                    int64_t batch, int64_t length, int64_t frames, double* yr, double* yi) {
  const int64_t n = p.fft_size, bins = p.bins();
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t w = 0; w < bins; ++w)
      for (int64_t f = 0; f < frames; ++f) {
        double sr = 0, si = 0;
        const double* xf = x + b * length + f * p.stride;
        for (int64_t t = 0; t < n; ++t) {
          sr += xf[t] * wr[size_t(w * n + t)];
          si += xf[t] * wi[size_t(w * n + t)];
        }
        yr[(b * bins + w) * frames + f] = sr;
        yi[(b * bins + w) * frames + f] = si;
      }
}

// Synthesis (the adjoint of analysis): x[b, f*stride + t] += y_r * wr + y_i * wi; x must be zeroed.
inline void synthesize(const Params& p, const std::vector<double>& wr, const std::vector<double>& wi,
                       const double* yr, const double* yi, int64_t batch, int64_t length, int64_t frames,
                       double* x) {
  const int64_t n = p.fft_size, bins = p.bins();
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t w = 0; w < bins; ++w)
      for (int64_t f = 0; f < frames; ++f) {
        const double gr = yr ? yr[(b * bins + w) * frames + f] : 0.0;
        const double gi = yi ? yi[(b * bins + w) * frames + f] : 0.0;
        double* xf = x + b * length + f * p.stride;
        for (int64_t t = 0; t < n; ++t) xf[t] += gr * wr[size_t(w * n + t)] + gi * wi[size_t(w * n + t)];
      }
}

}  // namespace nn::ops::stft
