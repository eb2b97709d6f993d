// FFT, IFFT: complex-to-complex discrete Fourier transforms over the last signal_ndim axes before the
// trailing (real, imag) axis of size 2.
#include <cmath>
#include <string>
#include <vector>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// Transforms one axis of a complex array in place: `outer` blocks of `n` points strided by `inner`.
// sign = -1 for the forward transform, +1 for the inverse; no scaling.
void dft_axis(std::vector<double>& z, int64_t outer, int64_t n, int64_t inner, int sign) {
  std::vector<double> cos_table(static_cast<size_t>(n)), sin_table(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    const double angle = 2.0 * M_PI * double(k) / double(n);
    cos_table[size_t(k)] = std::cos(angle);
    sin_table[size_t(k)] = sign * std::sin(angle);
  }
  std::vector<double> line_re(static_cast<size_t>(n)), line_im(static_cast<size_t>(n));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * n * inner + i;
      for (int64_t t = 0; t < n; ++t) {
        line_re[size_t(t)] = z[size_t(2 * (base + t * inner))];
        line_im[size_t(t)] = z[size_t(2 * (base + t * inner) + 1)];
      }
      for (int64_t k = 0; k < n; ++k) {
        double re = 0, im = 0;
        for (int64_t t = 0; t < n; ++t) {
          const size_t phase = size_t((k * t) % n);
          const double c = cos_table[phase], s = sin_table[phase];
          re += line_re[size_t(t)] * c - line_im[size_t(t)] * s;
          im += line_re[size_t(t)] * s + line_im[size_t(t)] * c;
        }
        z[size_t(2 * (base + k * inner))] = re;
        z[size_t(2 * (base + k * inner) + 1)] = im;
      }
    }
  }
}

// FFT (inverse=false) and IFFT (inverse=true). The backward of each is the adjoint: the transform in the
// opposite direction with the same scale.
class FourierTransform : public Function {
 public:
  FourierTransform(const OpSchema& s, const Context& c, const Attrs& a, bool inverse)
      : Function(s, c, a), inverse_(inverse) {}
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    signal_ndim_ = attrs_.get_int("signal_ndim", 1);
    NN_CHECK(signal_ndim_ >= 1 && signal_ndim_ <= 3)
        << type() << ": signal_ndim must be 1, 2 or 3, got " << signal_ndim_;
    NN_CHECK(int64_t(xs.size()) >= signal_ndim_ + 1 && xs.back() == 2)
        << type() << ": input " << to_string(xs) << " must end with " << signal_ndim_
        << " signal axes and a trailing axis of 2 (real, imag)";
    signal_size_ = 1;
    for (int64_t d = 0; d < signal_ndim_; ++d) signal_size_ *= xs[xs.size() - 2 - d];
    const bool normalized = attrs_.get_bool("normalized");
    scale_ = normalized ? 1.0 / std::sqrt(double(signal_size_)) : inverse_ ? 1.0 / double(signal_size_) : 1.0;
    out[0]->reshape(xs, true);
  }

  // Applies the transform with the given sign to src (complex, shape xs) and writes scale * result.
  void transform(const Shape& xs, const float* src, float* dst, int sign, bool accum) const {
    const int64_t n_complex = shape_size(xs) / 2;
    std::vector<double> z(size_t(2 * n_complex));
    for (size_t i = 0; i < z.size(); ++i) z[i] = src[i];
    const int nd = int(xs.size()) - 1;  // complex axes
    for (int64_t d = 0; d < signal_ndim_; ++d) {
      const int axis = nd - 1 - int(d);
      int64_t outer = 1, inner = 1;
      for (int a = 0; a < axis; ++a) outer *= xs[size_t(a)];
      for (int a = axis + 1; a < nd; ++a) inner *= xs[size_t(a)];
      dft_axis(z, outer, xs[size_t(axis)], inner, sign);
    }
    for (size_t i = 0; i < z.size(); ++i) {
      const float v = float(z[i] * scale_);
      dst[i] = accum ? dst[i] + v : v;
    }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    transform(in[0]->shape(), in_data(in[0]), out_data(out[0]), inverse_ ? 1 : -1, false);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    transform(in[0]->shape(), out_grad(out[0]), in_grad(in[0], accum[0]), inverse_ ? -1 : 1, accum[0]);
  }

 private:
  bool inverse_;
  int64_t signal_ndim_ = 1, signal_size_ = 1;
  double scale_ = 1.0;
};

class FFT : public FourierTransform {
 public:
  FFT(const OpSchema& s, const Context& c, const Attrs& a) : FourierTransform(s, c, a, false) {}
};
class IFFT : public FourierTransform {
 public:
  IFFT(const OpSchema& s, const Context& c, const Attrs& a) : FourierTransform(s, c, a, true) {}
};

OpSchema fourier_schema(const std::string& name, const std::string& doc) {
  return SchemaBuilder(name, "Signal Processing")
      .doc(doc)
      .in("x")
      .arg("signal_ndim", AttrType::kInt)
      .arg("normalized", AttrType::kBool, AttrValue(false))
      .out("y")
      .build();
}

}  // namespace

void register_fft(OpRegistry& r) {
  register_cpu<FFT>(r, fourier_schema("FFT", "complex-to-complex DFT over the last signal_ndim axes"));
}
void register_ifft(OpRegistry& r) {
  register_cpu<IFFT>(r, fourier_schema("IFFT", "inverse complex-to-complex DFT (1/N unless normalized)"));
}

}  // namespace nn::ops
