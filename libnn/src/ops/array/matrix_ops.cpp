// Where, Trilu, MatrixDiag, MatrixDiagPart, Meshgrid: element selection and matrix-structure ops.
#include <algorithm>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// Where: y = condition ? x_true : x_false; condition's shape is a leading prefix of x's (it broadcasts over
// the remaining axes). No gradient flows to condition.
class Where : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape &cs = in[0]->shape(), &ts = in[1]->shape(), &fs = in[2]->shape();
    NN_CHECK(ts == fs) << "Where: x_true " << to_string(ts) << " and x_false " << to_string(fs)
                       << " must have the same shape";
    bool prefix = cs.size() <= ts.size();
    for (size_t d = 0; prefix && d < cs.size(); ++d) prefix = cs[d] == ts[d];
    NN_CHECK(prefix) << "Where: condition " << to_string(cs) << " must be a leading part of x's shape "
                     << to_string(ts);
    inner_ = shape_size(ts, cs.size(), ts.size());
    out[0]->reshape(ts, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float *c = in_data(in[0]), *t = in_data(in[1]), *f = in_data(in[2]);
    float* y = out_data(out[0]);
    parallel_for(out[0]->size(), [&](int64_t i) { y[i] = c[i / inner_] != 0.f ? t[i] : f[i]; });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* c = in_data(in[0]);
    const float* dy = out_grad(out[0]);
    if (prop[0] && !accum[0]) in[0]->grad()->zero();
    for (int k = 1; k <= 2; ++k) {
      if (!prop[k]) continue;
      float* g = in_grad(in[k], accum[k]);
      const bool want = k == 1;
      for (int64_t i = 0; i < out[0]->size(); ++i)
        store_grad(g, i, (c[i / inner_] != 0.f) == want ? dy[i] : 0.f, accum[k]);
    }
  }

 private:
  int64_t inner_ = 1;
};

// Trilu: keeps the upper (j - i >= k) or lower (j - i <= k) triangle of the last two axes, zeroes the rest.
class Trilu : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    NN_CHECK(xs.size() >= 2) << "Trilu: input must have at least 2 dimensions, got " << to_string(xs);
    rows_ = xs[xs.size() - 2];
    cols_ = xs.back();
    k_ = attrs_.get_int("k");
    upper_ = attrs_.get_bool("upper");
    out[0]->reshape(xs, true);
  }
  bool keep(int64_t i) const {
    const int64_t r = (i / cols_) % rows_, c = i % cols_;
    return upper_ ? c - r >= k_ : c - r <= k_;
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < out[0]->size(); ++i) y[i] = keep(i) ? x[i] : 0.f;
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    for (int64_t i = 0; i < out[0]->size(); ++i) store_grad(dx, i, keep(i) ? dy[i] : 0.f, accum[0]);
  }

 private:
  int64_t rows_ = 1, cols_ = 1, k_ = 0;
  bool upper_ = true;
};

// MatrixDiag: (..., M) -> (..., M, M) with x on the diagonal.
class MatrixDiag : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    Shape ys = in[0]->shape();
    NN_CHECK(!ys.empty()) << "MatrixDiag: input must have at least 1 dimension";
    m_ = ys.back();
    ys.push_back(m_);
    out[0]->reshape(ys, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    std::fill(y, y + out[0]->size(), 0.f);
    for (int64_t i = 0; i < in[0]->size(); ++i) y[i * m_ + i % m_] = x[i];
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    for (int64_t i = 0; i < in[0]->size(); ++i) store_grad(dx, i, dy[i * m_ + i % m_], accum[0]);
  }

 private:
  int64_t m_ = 1;
};

// MatrixDiagPart: (..., M, M) -> (..., M), the diagonal.
class MatrixDiagPart : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    Shape xs = in[0]->shape();
    NN_CHECK(xs.size() >= 2 && xs.back() == xs[xs.size() - 2])
        << "MatrixDiagPart: input must end with a square (M, M), got " << to_string(xs);
    m_ = xs.back();
    xs.pop_back();
    out[0]->reshape(xs, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < out[0]->size(); ++i) y[i] = x[i * m_ + i % m_];
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    if (!accum[0]) std::fill(dx, dx + in[0]->size(), 0.f);
    for (int64_t i = 0; i < out[0]->size(); ++i) dx[i * m_ + i % m_] += dy[i];
  }

 private:
  int64_t m_ = 1;
};

// Meshgrid: 1-D inputs x_0..x_{n-1} -> n grids; ij indexing gives shape (n_0, n_1, ...), xy (the default)
// swaps the first two axes.
class Meshgrid : public Function {
 public:
  using Function::Function;
  int num_outputs(const std::vector<Shape>& input_shapes) const override { return int(input_shapes.size()); }
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(out.size() == in.size()) << "Meshgrid: needs one output per input, got " << out.size() << " for "
                                      << in.size();
    shape_.clear();
    for (size_t k = 0; k < in.size(); ++k) {
      NN_CHECK(in[k]->shape().size() == 1)
          << "Meshgrid: input " << k << " must be 1-D, got " << to_string(in[k]->shape());
      shape_.push_back(in[k]->shape()[0]);
    }
    const bool ij = attrs_.get_bool("ij_indexing");
    axis_.resize(in.size());
    for (size_t k = 0; k < in.size(); ++k) axis_[k] = int(k);
    if (!ij && in.size() >= 2) {
      std::swap(shape_[0], shape_[1]);
      axis_[0] = 1;
      axis_[1] = 0;
    }
    for (auto* o : out) o->reshape(shape_, true);
  }
  // Calls f(flat grid index, index along axis a).
  template <class F>
  void walk(int a, F&& f) const {
    const Shape strides = shape_strides(shape_);
    for (int64_t i = 0; i < shape_size(shape_); ++i) f(i, (i / strides[a]) % shape_[a]);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    for (size_t k = 0; k < in.size(); ++k) {
      const float* x = in_data(in[k]);
      float* y = out_data(out[k]);
      walk(axis_[k], [&](int64_t i, int64_t j) { y[i] = x[j]; });
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    for (size_t k = 0; k < in.size(); ++k) {
      if (!prop[k]) continue;
      const float* dy = out_grad(out[k]);
      float* dx = in_grad_zeroed(in[k], accum[k]);
      walk(axis_[k], [&](int64_t i, int64_t j) { dx[j] += dy[i]; });
    }
  }

 private:
  Shape shape_;
  std::vector<int> axis_;  // grid axis each input runs along
};

}  // namespace

void register_where(OpRegistry& r) {
  register_cpu<Where>(r, SchemaBuilder("Where", "Logical")
                             .doc("x_true where condition is nonzero, else x_false")
                             .in("condition")
                             .in("x_true")
                             .in("x_false")
                             .out("y")
                             .build());
}

void register_trilu(OpRegistry& r) {
  register_cpu<Trilu>(r, SchemaBuilder("Trilu", "Array Manipulation")
                             .doc("upper or lower triangle of the last two axes")
                             .in("x")
                             .arg("k", AttrType::kInt, AttrValue(int64_t(0)))
                             .arg("upper", AttrType::kBool, AttrValue(true))
                             .out("y")
                             .build());
}

void register_matrix_diag(OpRegistry& r) {
  register_cpu<MatrixDiag>(r, SchemaBuilder("MatrixDiag", "Array Manipulation")
                                  .doc("diagonal matrices from the last axis")
                                  .in("x")
                                  .out("y")
                                  .build());
}

void register_matrix_diag_part(OpRegistry& r) {
  register_cpu<MatrixDiagPart>(r, SchemaBuilder("MatrixDiagPart", "Array Manipulation")
                                      .doc("diagonal of the last two (square) axes")
                                      .in("x")
                                      .out("y")
                                      .build());
}

void register_meshgrid(OpRegistry& r) {
  register_cpu<Meshgrid>(r, SchemaBuilder("Meshgrid", "Array Manipulation")
                                .doc("coordinate grids from 1-D arrays")
                                .in_variadic("x")
                                .arg("ij_indexing", AttrType::kBool, AttrValue(false))
                                .out_variadic("y")
                                .build());
}

}  // namespace nn::ops
