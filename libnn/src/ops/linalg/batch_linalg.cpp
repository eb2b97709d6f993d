// BatchDet, BatchInv, BatchLogdet, BatchCholesky: per-matrix linear algebra on (B, N, N) in double precision.
#include <cmath>
#include <vector>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

using Mat = std::vector<double>;  // row-major N x N

// LU with partial pivoting; returns false when singular. det receives the determinant.
bool lu_decompose(Mat& a, int64_t n, std::vector<int64_t>& perm, double& det) {
  perm.resize(size_t(n));
  det = 1;
  for (int64_t i = 0; i < n; ++i) perm[i] = i;
  for (int64_t k = 0; k < n; ++k) {
    int64_t p = k;
    for (int64_t i = k + 1; i < n; ++i)
      if (std::fabs(a[i * n + k]) > std::fabs(a[p * n + k])) p = i;
    if (a[p * n + k] == 0) {
      det = 0;
      return false;
    }
    if (p != k) {
      for (int64_t j = 0; j < n; ++j) std::swap(a[k * n + j], a[p * n + j]);
      std::swap(perm[k], perm[p]);
      det = -det;
    }
    det *= a[k * n + k];
    for (int64_t i = k + 1; i < n; ++i) {
      a[i * n + k] /= a[k * n + k];
      for (int64_t j = k + 1; j < n; ++j) a[i * n + j] -= a[i * n + k] * a[k * n + j];
    }
  }
  return true;
}

// Inverse through LU; throws naming the function when the matrix is singular.
Mat inverse(Mat a, int64_t n, const char* fn, double* det_out = nullptr) {
  std::vector<int64_t> perm;
  double det;
  const bool ok = lu_decompose(a, n, perm, det);
  if (det_out) *det_out = det;
  NN_CHECK(ok) << fn << ": matrix is singular";
  Mat inv(size_t(n * n), 0.0);
  for (int64_t c = 0; c < n; ++c) {
    std::vector<double> col(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) col[i] = perm[i] == c ? 1.0 : 0.0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < i; ++j) col[i] -= a[i * n + j] * col[j];
    for (int64_t i = n - 1; i >= 0; --i) {
      for (int64_t j = i + 1; j < n; ++j) col[i] -= a[i * n + j] * col[j];
      col[i] /= a[i * n + i];
    }
    for (int64_t i = 0; i < n; ++i) inv[i * n + c] = col[i];
  }
  return inv;
}

Mat matmul(const Mat& a, const Mat& b, int64_t n, bool ta = false, bool tb = false) {
  Mat c(size_t(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < n; ++k) {
      const double av = ta ? a[k * n + i] : a[i * n + k];
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += av * (tb ? b[j * n + k] : b[k * n + j]);
    }
  return c;
}

// Shape checks and per-matrix loading shared by the four functions.
class BatchMatrixFunction : public Function {
 public:
  using Function::Function;

 protected:
  Shape check_square(const Variables& in) {
    const Shape& s = in[0]->shape();
    NN_CHECK(s.size() == 3 && s[1] == s[2]) << type() << ": input " << to_string(s) << " must be (B, N, N)";
    n_ = s[1];
    return s;
  }
  Mat load(const float* p, int64_t b) const { return Mat(p + b * n_ * n_, p + (b + 1) * n_ * n_); }
  int64_t batch(const Variables& in) const { return in[0]->shape()[0]; }
  int64_t n_ = 0;
};

// det (mode 0) or log|det| (mode 1): y (B,), dx = dy * det * inv^T or dy * inv^T.
template <bool kLog>
class BatchDetLike : public BatchMatrixFunction {
 public:
  using BatchMatrixFunction::BatchMatrixFunction;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    check_square(in);
    out[0]->reshape({batch(in)}, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    for (int64_t b = 0; b < batch(in); ++b) {
      Mat a = load(x, b);
      std::vector<int64_t> perm;
      double det;
      lu_decompose(a, n_, perm, det);
      y[b] = float(kLog ? std::log(std::fabs(det)) : det);
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* x = in_data(in[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    for (int64_t b = 0; b < batch(in); ++b) {
      double det;
      Mat inv = inverse(load(x, b), n_, kLog ? "BatchLogdet" : "BatchDet", &det);
      const double scale = kLog ? dy[b] : dy[b] * det;
      for (int64_t i = 0; i < n_; ++i)
        for (int64_t j = 0; j < n_; ++j)
          store_grad(dx, b * n_ * n_ + i * n_ + j, float(scale * inv[j * n_ + i]), accum[0]);
    }
  }
};

class BatchInv : public BatchMatrixFunction {
 public:
  using BatchMatrixFunction::BatchMatrixFunction;
  bool grad_depends_input_data(int, int) const override { return false; }
  bool grad_depends_output_data(int, int) const override { return true; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override { out[0]->reshape(check_square(in), true); }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    for (int64_t b = 0; b < batch(in); ++b) {
      Mat inv = inverse(load(x, b), n_, "BatchInv");
      for (int64_t k = 0; k < n_ * n_; ++k) y[b * n_ * n_ + k] = float(inv[k]);
    }
  }
  // dx = -Y^T dy Y^T with Y = inv(x).
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* y = in_data(out[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    for (int64_t b = 0; b < batch(in); ++b) {
      Mat yi = load(y, b);
      Mat g = matmul(matmul(yi, load(dy, b), n_, true, false), yi, n_, false, true);
      for (int64_t k = 0; k < n_ * n_; ++k) store_grad(dx, b * n_ * n_ + k, float(-g[k]), accum[0]);
    }
  }
};

// Cholesky factor L (x = L L^T) or U = L^T when upper; the gradient is symmetric (Murray 2016).
class BatchCholesky : public BatchMatrixFunction {
 public:
  using BatchMatrixFunction::BatchMatrixFunction;
  bool grad_depends_input_data(int, int) const override { return false; }
  bool grad_depends_output_data(int, int) const override { return true; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    out[0]->reshape(check_square(in), true);
    upper_ = attrs_.get_bool("upper");
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    for (int64_t b = 0; b < batch(in); ++b) {
      Mat a = load(x, b), l(size_t(n_ * n_), 0.0);
      for (int64_t j = 0; j < n_; ++j) {
        double d = a[j * n_ + j];
        for (int64_t k = 0; k < j; ++k) d -= l[j * n_ + k] * l[j * n_ + k];
        NN_CHECK(d > 0) << "BatchCholesky: matrix " << b << " is not positive definite";
        l[j * n_ + j] = std::sqrt(d);
        for (int64_t i = j + 1; i < n_; ++i) {
          double s = a[i * n_ + j];
          for (int64_t k = 0; k < j; ++k) s -= l[i * n_ + k] * l[j * n_ + k];
          l[i * n_ + j] = s / l[j * n_ + j];
        }
      }
      for (int64_t i = 0; i < n_; ++i)
        for (int64_t j = 0; j < n_; ++j)
          y[b * n_ * n_ + i * n_ + j] = float(upper_ ? l[j * n_ + i] : l[i * n_ + j]);
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* y = in_data(out[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    for (int64_t b = 0; b < batch(in); ++b) {
      // Work with the lower factor L and its gradient gL (transposed when the output is upper).
      Mat l = load(y, b), gl = load(dy, b);
      if (upper_) {
        for (int64_t i = 0; i < n_; ++i)
          for (int64_t j = 0; j < i; ++j)
            std::swap(l[i * n_ + j], l[j * n_ + i]), std::swap(gl[i * n_ + j], gl[j * n_ + i]);
      }
      Mat p = matmul(l, gl, n_, true, false);  // phi(L^T gL): lower triangle, halved diagonal
      for (int64_t i = 0; i < n_; ++i)
        for (int64_t j = i; j < n_; ++j) p[i * n_ + j] = i == j ? 0.5 * p[i * n_ + j] : 0.0;
      Mat linv = inverse(l, n_, "BatchCholesky");
      Mat s = matmul(matmul(linv, p, n_, true, false), linv, n_);  // L^-T P L^-1
      for (int64_t i = 0; i < n_; ++i)
        for (int64_t j = 0; j < n_; ++j)
          store_grad(dx, b * n_ * n_ + i * n_ + j, float(0.5 * (s[i * n_ + j] + s[j * n_ + i])), accum[0]);
    }
  }

 private:
  bool upper_ = false;
};

OpSchema matrix_schema(const char* name, const char* doc) {
  return SchemaBuilder(name, "Array Manipulation").doc(doc).in("x").out("y").build();
}

}  // namespace

void register_batch_det(OpRegistry& r) {
  register_cpu<BatchDetLike<false>>(r, matrix_schema("BatchDet", "determinant of each (N, N) matrix"));
}
void register_batch_logdet(OpRegistry& r) {
  register_cpu<BatchDetLike<true>>(r, matrix_schema("BatchLogdet", "log |det| of each (N, N) matrix"));
}
void register_batch_inv(OpRegistry& r) {
  register_cpu<BatchInv>(r, matrix_schema("BatchInv", "inverse of each (N, N) matrix"));
}
void register_batch_cholesky(OpRegistry& r) {
  register_cpu<BatchCholesky>(r, SchemaBuilder("BatchCholesky", "Array Manipulation")
                                     .doc("Cholesky factor of each symmetric positive-definite matrix")
                                     .in("x")
                                     .arg("upper", AttrType::kBool, AttrValue(false))
                                     .out("y")
                                     .build());
}

}  // namespace nn::ops
