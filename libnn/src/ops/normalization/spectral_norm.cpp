// SpectralNorm: w divided by its largest singular value, estimated by `itr` power iterations from u
// (u is updated in place unless test); gradients treat the iterated u and v as constants, as upstream.
#include <cmath>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// w is seen as the matrix M (R, C): rows along `dim`, columns over the remaining axes in order.
class SpectralNorm : public Function {
 public:
  SpectralNorm(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a),
        itr_(attrs_.get_int("itr")),
        eps_(float(attrs_.get_float("eps"))),
        test_(attrs_.get_bool("test")),
        output_u_(attrs_.get_bool("output_u")) {}
  int num_outputs(const std::vector<Shape>&) const override { return output_u_ ? 2 : 1; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& ws = in[0]->shape();
    const int64_t dim = attrs_.get_int("dim");
    NN_CHECK(dim >= 0 && dim < int64_t(ws.size()))
        << "SpectralNorm: dim " << dim << " is out of range for w " << to_string(ws);
    NN_CHECK(itr_ > 0 && eps_ > 0) << "SpectralNorm: itr (" << itr_ << ") and eps (" << eps_
                                   << ") must be positive";
    NN_CHECK(int(out.size()) == num_outputs({})) << "SpectralNorm: expects " << num_outputs({}) << " outputs";
    rows_ = ws[dim];
    cols_ = rows_ > 0 ? in[0]->size() / rows_ : 0;
    NN_CHECK(in[1]->size() == rows_) << "SpectralNorm: u has shape " << to_string(in[1]->shape()) << ", expected "
                                     << rows_ << " elements (w " << to_string(ws) << ", dim " << dim << ")";
    // Flat w index of M[r][c]: dim moved to the front, the other axes in order.
    const Shape strides = shape_strides(ws);
    Shape rest;
    std::vector<int64_t> rest_strides;
    for (size_t d = 0; d < ws.size(); ++d)
      if (int64_t(d) != dim) {
        rest.push_back(ws[d]);
        rest_strides.push_back(strides[d]);
      }
    index_.resize(size_t(in[0]->size()));
    std::vector<int64_t> idx(rest.size(), 0);
    for (int64_t c = 0; c < cols_; ++c) {
      int64_t off = 0;
      for (size_t d = 0; d < rest.size(); ++d) off += idx[d] * rest_strides[d];
      for (int64_t r = 0; r < rows_; ++r) index_[r * cols_ + c] = r * strides[dim] + off;
      for (int d = int(rest.size()) - 1; d >= 0; --d) {
        if (++idx[d] < rest[d]) break;
        idx[d] = 0;
      }
    }
    out[0]->reshape(ws, true);
    if (output_u_) out[1]->reshape(in[1]->shape(), true);
  }

  double m(const float* w, int64_t r, int64_t c) const { return w[index_[r * cols_ + c]]; }

  void normalize(std::vector<double>& a) const {
    double s = 0;
    for (double x : a) s += x * x;
    const double inv = 1.0 / std::sqrt(s + double(eps_));
    for (double& x : a) x *= inv;
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* w = in_data(in[0]);
    u_.assign(in_data(in[1]), in_data(in[1]) + rows_);
    v_.assign(size_t(cols_), 0.0);
    for (int64_t it = 0; it < itr_; ++it) {
      std::fill(v_.begin(), v_.end(), 0.0);
      for (int64_t r = 0; r < rows_; ++r)
        for (int64_t c = 0; c < cols_; ++c) v_[c] += m(w, r, c) * u_[r];
      normalize(v_);
      for (int64_t r = 0; r < rows_; ++r) {
        double s = 0;
        for (int64_t c = 0; c < cols_; ++c) s += m(w, r, c) * v_[c];
        u_[r] = s;
      }
      normalize(u_);
    }
    sigma_ = 0;
    for (int64_t r = 0; r < rows_; ++r)
      for (int64_t c = 0; c < cols_; ++c) sigma_ += u_[r] * m(w, r, c) * v_[c];
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < in[0]->size(); ++i) y[i] = float(w[i] / sigma_);
    if (!test_) {
      float* u = in[1]->data()->cast<float>();
      for (int64_t r = 0; r < rows_; ++r) u[r] = float(u_[r]);
    }
    if (output_u_) {
      float* uo = out_data(out[1]);
      for (int64_t r = 0; r < rows_; ++r) uo[r] = float(u_[r]);
    }
  }

  // dW = G / sigma - (sum G * W) / sigma^2 * u v^T (u, v from the last forward, held constant).
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (prop.size() > 1 && prop[1] && !accum[1]) in[1]->grad()->zero();  // u gets no gradient
    if (!prop[0]) return;
    const float* w = in_data(in[0]);
    const float* dy = out_grad(out[0]);
    double dot = 0;
    for (int64_t i = 0; i < in[0]->size(); ++i) dot += double(dy[i]) * w[i];
    const double k = dot / (sigma_ * sigma_);
    float* dw = in_grad(in[0], accum[0]);
    for (int64_t r = 0; r < rows_; ++r)
      for (int64_t c = 0; c < cols_; ++c) {
        const int64_t i = index_[r * cols_ + c];
        store_grad(dw, i, float(dy[i] / sigma_ - k * u_[r] * v_[c]), accum[0]);
      }
  }

 private:
  int64_t itr_;
  float eps_;
  bool test_, output_u_;
  int64_t rows_ = 1, cols_ = 1;
  std::vector<int64_t> index_;
  std::vector<double> u_, v_;
  double sigma_ = 1;
};

}  // namespace

void register_spectral_norm(OpRegistry& r) {
  register_cpu<SpectralNorm>(r, SchemaBuilder("SpectralNorm", "Normalization")
                                    .doc("w divided by its spectral norm (power iteration on u)")
                                    .in_param("w")
                                    .in("u")
                                    .arg("dim", AttrType::kInt, AttrValue(int64_t(0)))
                                    .arg("itr", AttrType::kInt, AttrValue(int64_t(1)))
                                    .arg("eps", AttrType::kFloat, AttrValue(1e-12))
                                    .arg("test", AttrType::kBool, AttrValue(false))
                                    .arg("output_u", AttrType::kBool, AttrValue(false))
                                    .out("w_sn")
                                    .out_variadic("u")
                                    .build());
}

}  // namespace nn::ops
