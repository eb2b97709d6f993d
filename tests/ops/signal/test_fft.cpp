// FFT and IFFT against a direct N-D DFT sum in double precision.
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"

using namespace nn::test;

namespace {

// y[k] = scale * sum_n x[n] exp(sign * 2 pi i sum_d k_d n_d / N_d) over the last signal_ndim complex axes.
Reference dft_ref(int signal_ndim, int sign, bool normalized) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    const nn::Shape& xs = in[0].shape;
    nn::Shape sig(xs.end() - 1 - signal_ndim, xs.end() - 1);
    int64_t n_sig = 1;
    for (auto s : sig) n_sig *= s;
    const int64_t batch = ref_size(xs) / 2 / n_sig;
    const double scale = normalized ? 1.0 / std::sqrt(double(n_sig)) : sign > 0 ? 1.0 / double(n_sig) : 1.0;
    RefArray y{xs, std::vector<double>(in[0].data.size())};
    auto coords = [&](int64_t flat, std::vector<int64_t>& c) {
      for (int d = signal_ndim - 1; d >= 0; --d) {
        c[size_t(d)] = flat % sig[size_t(d)];
        flat /= sig[size_t(d)];
      }
    };
    std::vector<int64_t> kc(static_cast<size_t>(signal_ndim)), nc(static_cast<size_t>(signal_ndim));
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t k = 0; k < n_sig; ++k) {
        coords(k, kc);
        double re = 0, im = 0;
        for (int64_t n = 0; n < n_sig; ++n) {
          coords(n, nc);
          double phase = 0;
          for (int d = 0; d < signal_ndim; ++d)
            phase += double(kc[size_t(d)] * nc[size_t(d)]) / double(sig[size_t(d)]);
          const double c = std::cos(2 * M_PI * phase), s = sign * std::sin(2 * M_PI * phase);
          const double xr = in[0].data[size_t(2 * (b * n_sig + n))],
                       xi = in[0].data[size_t(2 * (b * n_sig + n) + 1)];
          re += xr * c - xi * s;
          im += xr * s + xi * c;
        }
        y.data[size_t(2 * (b * n_sig + k))] = scale * re;
        y.data[size_t(2 * (b * n_sig + k) + 1)] = scale * im;
      }
    }
    return std::vector<RefArray>{y};
  };
}

void run_fourier(const char* type, int sign) {
  struct Case {
    nn::Shape shape;
    int signal_ndim;
  };
  const Case cases[] = {{{5, 2}, 1}, {{2, 6, 2}, 1}, {{3, 4, 2}, 2}, {{2, 2, 3, 2, 2}, 3}};
  uint32_t seed = 1;
  for (const auto& c : cases) {
    for (bool normalized : {false, true}) {
      std::mt19937 rng(seed++);
      OpTestCase tc{type,
                    {{"signal_ndim", int64_t(c.signal_ndim)}, {"normalized", normalized}},
                    {random_input(c.shape, rng)},
                    dft_ref(c.signal_ndim, sign, normalized)};
      run_op_test(tc);
    }
  }
}

}  // namespace

TEST(FFT, MatchesDirectDft) { run_fourier("FFT", -1); }

TEST(IFFT, MatchesDirectInverseDft) { run_fourier("IFFT", 1); }

TEST(FFT, RejectsMissingComplexAxis) {
  std::mt19937 rng(9);
  OpTestCase tc{"FFT", {{"signal_ndim", int64_t(1)}}, {random_input({4, 3}, rng)}, dft_ref(1, -1, false)};
  EXPECT_ANY_THROW(run_op_test(tc));
}
