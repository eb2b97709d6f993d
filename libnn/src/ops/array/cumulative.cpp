// CumSum and CumProd along one axis (exclusive, reverse), and Norm (p-norm over axes): the cumulative and
// norm reductions of nnabla's Reduction category.
#include <cmath>

#include "ops/detail/op_common.hpp"
#include "ops/detail/reduce.hpp"

namespace nn::ops {
namespace {

// The input as lines along `axis`: (outer, len, inner); scan position t of a line maps to index
// (reverse ? len-1-t : t).
class CumulativeFunction : public Function {
 public:
  CumulativeFunction(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), exclusive_(attrs_.get_bool("exclusive")), reverse_(attrs_.get_bool("reverse")) {}

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    NN_CHECK(!xs.empty()) << type() << ": input must have at least one dimension";
    const int axis = normalize_axis(attrs_.get_int("axis"), xs.size(), (type() + ": axis").c_str());
    outer_ = shape_size(xs, 0, axis);
    len_ = xs[axis];
    inner_ = shape_size(xs, axis + 1, xs.size());
    out[0]->reshape(xs, true);
  }

  // Calls f(flat index of scan position 0, stride between scan positions) for every line.
  template <class F>
  void for_lines(F&& f) const {
    for (int64_t o = 0; o < outer_; ++o)
      for (int64_t k = 0; k < inner_; ++k) {
        const int64_t first = (o * len_ + (reverse_ ? len_ - 1 : 0)) * inner_ + k;
        f(first, reverse_ ? -inner_ : inner_);
      }
  }

  bool exclusive_, reverse_;
  int64_t outer_ = 1, len_ = 1, inner_ = 1;
};

class CumSum : public CumulativeFunction {
 public:
  using CumulativeFunction::CumulativeFunction;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    for_lines([&](int64_t p, int64_t step) {
      double acc = 0;
      for (int64_t t = 0; t < len_; ++t, p += step) {
        if (exclusive_) y[p] = float(acc);
        acc += x[p];
        if (!exclusive_) y[p] = float(acc);
      }
    });
  }
  // dx at scan position j = sum of dy over the positions whose prefix contains j (a scan the other way).
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    for_lines([&](int64_t first, int64_t step) {
      double acc = 0;
      int64_t p = first + (len_ - 1) * step;
      for (int64_t t = len_ - 1; t >= 0; --t, p -= step) {
        if (exclusive_) store_grad(dx, p, float(acc), accum[0]);
        acc += dy[p];
        if (!exclusive_) store_grad(dx, p, float(acc), accum[0]);
      }
    });
  }
};

class CumProd : public CumulativeFunction {
 public:
  using CumulativeFunction::CumulativeFunction;

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    for_lines([&](int64_t p, int64_t step) {
      double acc = 1;
      for (int64_t t = 0; t < len_; ++t, p += step) {
        if (exclusive_) y[p] = float(acc);
        acc *= x[p];
        if (!exclusive_) y[p] = float(acc);
      }
    });
  }
  // dx_j = P_j * S_j with P_j the product of x before j and S_j = sum over outputs i using x_j of
  // dy_i * (product of x strictly between j and i's end): S_j = dy_j + x_{j+1} S_{j+1} (inclusive),
  // S_j = dy_{j+1} + x_{j+1} S_{j+1} (exclusive). No division, so zeros are exact.
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* x = in_data(in[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    std::vector<double> before(static_cast<size_t>(len_));
    for_lines([&](int64_t first, int64_t step) {
      double prod = 1;
      for (int64_t t = 0; t < len_; ++t) {
        before[t] = prod;
        prod *= x[first + t * step];
      }
      double s = 0;
      for (int64_t t = len_ - 1; t >= 0; --t) {
        const int64_t p = first + t * step;
        if (exclusive_) {
          s = t + 1 < len_ ? dy[p + step] + x[p + step] * s : 0.0;
        } else {
          s = t + 1 < len_ ? dy[p] + x[p + step] * s : dy[p];
        }
        store_grad(dx, p, float(before[t] * s), accum[0]);
      }
    });
  }
};

// y = (sum |x|^p)^(1/p) over axes.
class Norm : public Function {
 public:
  Norm(const OpSchema& s, const Context& c, const Attrs& a) : Function(s, c, a), p_(attrs_.get_float("p")) {}
  bool grad_depends_output_data(int, int) const override { return true; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(p_ >= 1) << "Norm: p must be >= 1, got " << p_;
    plan_ = make_reduce_plan(in[0]->shape(), attrs_);
    out[0]->reshape(plan_.out_shape, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    for (int64_t o = 0; o < plan_.out_size; ++o) {
      double s = 0;
      for (int64_t r : plan_.red_offsets) s += std::pow(std::fabs(double(x[plan_.out_offsets[o] + r])), p_);
      y[o] = float(std::pow(s, 1.0 / p_));
    }
  }
  // dx = dy * y^(1-p) |x|^(p-1) sign(x).
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* x = in_data(in[0]);
    const float* y = in_data(out[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    for (int64_t o = 0; o < plan_.out_size; ++o) {
      const double scale = y[o] > 0 ? dy[o] * std::pow(double(y[o]), 1 - p_) : 0.0;
      for (int64_t r : plan_.red_offsets) {
        const int64_t i = plan_.out_offsets[o] + r;
        const double xi = x[i];
        const double g = scale * std::pow(std::fabs(xi), p_ - 1) * (xi > 0 ? 1 : xi < 0 ? -1 : 0);
        store_grad(dx, i, float(g), accum[0]);
      }
    }
  }

 private:
  double p_;
  ReducePlan plan_;
};

SchemaBuilder cumulative_schema(const char* name, const char* doc) {
  SchemaBuilder b(name, "Reduction");
  b.doc(doc)
      .in("x")
      .arg("axis", AttrType::kInt, AttrValue(int64_t(0)))
      .arg("exclusive", AttrType::kBool, AttrValue(false))
      .arg("reverse", AttrType::kBool, AttrValue(false))
      .out("y");
  return b;
}

}  // namespace

void register_cumsum(OpRegistry& r) {
  register_cpu<CumSum>(r, cumulative_schema("CumSum", "cumulative sum along axis").build());
}

void register_cumprod(OpRegistry& r) {
  register_cpu<CumProd>(r, cumulative_schema("CumProd", "cumulative product along axis").build());
}

void register_norm(OpRegistry& r) {
  register_cpu<Norm>(r, SchemaBuilder("Norm", "Reduction")
                            .doc("p-norm over axes")
                            .in("x")
                            .arg("p", AttrType::kFloat, AttrValue(2.0))
                            .arg("axes", AttrType::kInts, std::nullopt, "all")
                            .arg("keep_dims", AttrType::kBool, AttrValue(false))
                            .out("y")
                            .build());
}

}  // namespace nn::ops
