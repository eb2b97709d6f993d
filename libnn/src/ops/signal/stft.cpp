// STFT and ISTFT: short-time Fourier transform of (batch, samples) signals into (batch, fft_size/2+1,
// frames) real and imaginary parts, and its overlap-add inverse; each can act as the other's backward.
#include <string>
#include <vector>

#include "ops/detail/op_common.hpp"
#include "ops/signal/stft_common.hpp"

namespace nn::ops {
namespace {

stft::Params read_params(const Attrs& a) {
  stft::Params p;
  p.window_size = a.get_int("window_size", 0);
  p.stride = a.get_int("stride", 0);
  p.fft_size = a.get_int("fft_size", 0);
  p.window_type = a.get_string("window_type");
  p.center = a.get_bool("center");
  p.pad_mode = a.get_string("pad_mode");
  return p;
}

std::vector<double> to_double(const float* p, int64_t n) { return std::vector<double>(p, p + n); }

void store(const std::vector<double>& v, float* dst, bool accum) {
  for (size_t i = 0; i < v.size(); ++i) dst[i] = accum ? dst[i] + float(v[i]) : float(v[i]);
}

class STFT : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    p_ = read_params(attrs_);
    stft::check_params("STFT", p_);
    as_istft_backward_ = attrs_.get_bool("as_istft_backward");
    const Shape& xs = in[0]->shape();
    NN_CHECK(xs.size() == 2) << "STFT: x must be (batch, samples), got " << to_string(xs);
    batch_ = xs[0];
    length_ = xs[1];
    padded_ = p_.center ? length_ + 2 * p_.half() : length_;
    NN_CHECK(padded_ >= p_.fft_size) << "STFT: signal " << to_string(xs) << " is shorter than fft_size "
                                     << p_.fft_size;
    frames_ = (padded_ - p_.fft_size) / p_.stride + 1;
    NN_CHECK(!as_istft_backward_ || p_.pad_mode == "constant")
        << "STFT: pad_mode must be 'constant' when as_istft_backward is true, got '" << p_.pad_mode << "'";
    stft::weights(p_, as_istft_backward_, wr_, wi_);
    if (as_istft_backward_) inv_window_ = stft::inv_window(p_, padded_);
    out[0]->reshape({batch_, p_.bins(), frames_}, true);
    out[1]->reshape({batch_, p_.bins(), frames_}, true);
  }

  // Divides by the overlap-added squared window where ISTFT does (its interior when centred).
  void apply_inv_window(std::vector<double>& v) const {
    const int64_t lo = p_.center ? p_.half() : 0, hi = p_.center ? padded_ - p_.half() : padded_;
    for (int64_t b = 0; b < batch_; ++b)
      for (int64_t i = 0; i < padded_; ++i) {
        double& e = v[size_t(b * padded_ + i)];
        e = (i >= lo && i < hi) ? e / inv_window_[size_t(i)] : (p_.center ? 0.0 : e);
      }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    auto x = to_double(in_data(in[0]), in[0]->size());
    std::vector<double> xp(size_t(batch_ * padded_));
    if (p_.center)
      stft::pad_rows(p_.pad_mode, x.data(), xp.data(), batch_, length_, p_.half());
    else
      xp = x;
    if (as_istft_backward_) apply_inv_window(xp);
    std::vector<double> yr(size_t(out[0]->size())), yi(size_t(out[1]->size()));
    stft::analyze(p_, wr_, wi_, xp.data(), batch_, padded_, frames_, yr.data(), yi.data());
    store(yr, out_data(out[0]), false);
    store(yi, out_data(out[1]), false);
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto gr = to_double(out_grad(out[0]), out[0]->size());
    auto gi = to_double(out_grad(out[1]), out[1]->size());
    std::vector<double> gxp(size_t(batch_ * padded_), 0.0);
    stft::synthesize(p_, wr_, wi_, gr.data(), gi.data(), batch_, padded_, frames_, gxp.data());
    if (as_istft_backward_) apply_inv_window(gxp);
    std::vector<double> gx(size_t(batch_ * length_), 0.0);
    if (p_.center)
      stft::unpad_rows_adjoint(p_.pad_mode, gxp.data(), gx.data(), batch_, length_, p_.half());
    else
      gx = gxp;
    store(gx, in_grad(in[0], accum[0]), accum[0]);
  }

 private:
  stft::Params p_;
  bool as_istft_backward_ = false;
  int64_t batch_ = 0, length_ = 0, padded_ = 0, frames_ = 0;
  std::vector<double> wr_, wi_, inv_window_;
};

class ISTFT : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    p_ = read_params(attrs_);
    stft::check_params("ISTFT", p_);
    as_stft_backward_ = attrs_.get_bool("as_stft_backward");
    const Shape& rs = in[0]->shape();
    NN_CHECK(rs.size() == 3 && rs == in[1]->shape() && rs[1] == p_.bins())
        << "ISTFT: y_r " << to_string(rs) << " and y_i " << to_string(in[1]->shape())
        << " must both be (batch, fft_size/2+1 = " << p_.bins() << ", frames)";
    NN_CHECK(p_.fft_size % p_.stride == 0)
        << "ISTFT: fft_size (" << p_.fft_size << ") must be a multiple of stride (" << p_.stride << ")";
    NN_CHECK(as_stft_backward_ || p_.pad_mode == "constant")
        << "ISTFT: pad_mode must be 'constant' unless as_stft_backward is true, got '" << p_.pad_mode << "'";
    batch_ = rs[0];
    frames_ = rs[2];
    full_ = (frames_ - 1) * p_.stride + p_.fft_size;
    length_ = p_.center ? full_ - 2 * p_.half() : full_;
    NN_CHECK(length_ > 0) << "ISTFT: " << frames_ << " frames give an empty signal";
    stft::weights(p_, !as_stft_backward_, wr_, wi_);
    if (!as_stft_backward_) {
      inv_window_ = stft::inv_window(p_, full_);
      const int64_t lo = p_.center ? p_.half() : 0, hi = p_.center ? full_ - p_.half() : full_;
      for (int64_t i = lo; i < hi; ++i)
        NN_CHECK(inv_window_[size_t(i)] >= 1e-11)
            << "ISTFT: the nonzero overlap-add (NOLA) condition fails at sample " << i << " (window "
            << p_.window_type << ", window_size " << p_.window_size << ", stride " << p_.stride << ")";
    }
    out[0]->reshape({batch_, length_}, true);
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    auto yr = to_double(in_data(in[0]), in[0]->size());
    auto yi = to_double(in_data(in[1]), in[1]->size());
    std::vector<double> z(size_t(batch_ * full_), 0.0);
    stft::synthesize(p_, wr_, wi_, yr.data(), yi.data(), batch_, full_, frames_, z.data());
    std::vector<double> x(size_t(batch_ * length_), 0.0);
    if (as_stft_backward_) {
      if (p_.center)
        stft::unpad_rows_adjoint(p_.pad_mode, z.data(), x.data(), batch_, length_, p_.half());
      else
        x = z;
    } else {
      const int64_t lo = p_.center ? p_.half() : 0;
      for (int64_t b = 0; b < batch_; ++b)
        for (int64_t i = 0; i < length_; ++i)
          x[size_t(b * length_ + i)] = z[size_t(b * full_ + lo + i)] / inv_window_[size_t(lo + i)];
    }
    store(x, out_data(out[0]), false);
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0] && !prop[1]) return;
    auto g = to_double(out_grad(out[0]), out[0]->size());
    std::vector<double> gz(size_t(batch_ * full_), 0.0);
    if (as_stft_backward_) {
      if (p_.center)
        stft::pad_rows(p_.pad_mode, g.data(), gz.data(), batch_, length_, p_.half());
      else
        gz = g;
    } else {
      const int64_t lo = p_.center ? p_.half() : 0;
      for (int64_t b = 0; b < batch_; ++b)
        for (int64_t i = 0; i < length_; ++i)
          gz[size_t(b * full_ + lo + i)] = g[size_t(b * length_ + i)] / inv_window_[size_t(lo + i)];
    }
    std::vector<double> gr(size_t(in[0]->size())), gi(size_t(in[1]->size()));
    stft::analyze(p_, wr_, wi_, gz.data(), batch_, full_, frames_, gr.data(), gi.data());
    if (prop[0]) store(gr, in_grad(in[0], accum[0]), accum[0]);
    if (prop[1]) store(gi, in_grad(in[1], accum[1]), accum[1]);
  }

 private:
  stft::Params p_;
  bool as_stft_backward_ = false;
  int64_t batch_ = 0, frames_ = 0, full_ = 0, length_ = 0;
  std::vector<double> wr_, wi_, inv_window_;
};

SchemaBuilder stft_schema(const std::string& name, const std::string& doc) {
  SchemaBuilder b(name, "Signal Processing");
  b.doc(doc);
  return b;
}

void add_stft_args(SchemaBuilder& b, const std::string& flag) {
  b.arg("window_size", AttrType::kInt)
      .arg("stride", AttrType::kInt)
      .arg("fft_size", AttrType::kInt)
      .arg("window_type", AttrType::kString, AttrValue(std::string("hanning")))
      .arg("center", AttrType::kBool, AttrValue(true))
      .arg("pad_mode", AttrType::kString, AttrValue(std::string("reflect")))
      .arg(flag, AttrType::kBool, AttrValue(false));
}

}  // namespace

void register_stft(OpRegistry& r) {
  auto b = stft_schema("STFT", "short-time Fourier transform (real and imaginary parts)");
  b.in("x");
  add_stft_args(b, "as_istft_backward");
  b.out("y_r").out("y_i");
  register_cpu<STFT>(r, b.build());
}
void register_istft(OpRegistry& r) {
  auto b = stft_schema("ISTFT", "inverse short-time Fourier transform (overlap-add)");
  b.in("y_r").in("y_i");
  add_stft_args(b, "as_stft_backward");
  b.out("x");
  register_cpu<ISTFT>(r, b.build());
}

}  // namespace nn::ops
