// Gather, GatherNd, ScatterNd, ScatterAdd: index-driven data movement (indices arrive as float values).
#include <algorithm>
#include <cmath>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// An index value read from a float array, checked against the dim it indexes (negative counts from the end).
int64_t index_value(float v, int64_t dim, const std::string& op) {
  int64_t i = int64_t(std::llround(v));
  if (i < 0) i += dim;
  NN_CHECK(i >= 0 && i < dim) << op << ": index " << v << " is out of range for a dim of size " << dim;
  return i;
}

// Gather: y = x[batch..., indices[batch..., j...], inner...] along axis; tf.gather semantics with batch_dims.
class Gather : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int i, int j) const override { return j == 1; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const Shape& is = in[1]->shape();
    const int64_t batch = attrs_.get_int("batch_dims");
    const int axis = normalize_axis(attrs_.get_int("axis"), xs.size(), "Gather: axis");
    NN_CHECK(batch >= 0 && batch <= axis && batch <= int64_t(is.size()))
        << "Gather: batch_dims " << batch << " must be in [0, min(axis " << axis << ", indices rank " << is.size()
        << ")]";
    for (int64_t d = 0; d < batch; ++d)
      NN_CHECK(xs[d] == is[d]) << "Gather: batch dim " << d << " differs: x " << to_string(xs) << ", indices "
                               << to_string(is);
    batch_ = shape_size(xs, 0, batch);
    pre_ = shape_size(xs, batch, axis);  // axes between the batch dims and axis
    dim_ = xs[axis];
    inner_ = shape_size(xs, axis + 1, xs.size());
    per_batch_ = shape_size(is, batch, is.size());
    Shape ys(xs.begin(), xs.begin() + axis);
    ys.insert(ys.end(), is.begin() + batch, is.end());
    ys.insert(ys.end(), xs.begin() + axis + 1, xs.end());
    out[0]->reshape(ys, true);
  }

  // Calls f(y offset, x offset) for every (batch, pre, index, inner) element, y in C order.
  template <class F>
  void walk(const float* idx, F&& f) const {
    int64_t yo = 0;
    for (int64_t b = 0; b < batch_; ++b)
      for (int64_t p = 0; p < pre_; ++p)
        for (int64_t j = 0; j < per_batch_; ++j) {
          const int64_t k = index_value(idx[b * per_batch_ + j], dim_, "Gather");
          const int64_t xo = ((b * pre_ + p) * dim_ + k) * inner_;
          for (int64_t i = 0; i < inner_; ++i) f(yo++, xo + i);
        }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    walk(in_data(in[1]), [&](int64_t yo, int64_t xo) { y[yo] = x[xo]; });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (prop.size() > 1 && prop[1] && !accum[1]) in[1]->grad()->zero();  // indices: no gradient
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    walk(in_data(in[1]), [&](int64_t yo, int64_t xo) { dx[xo] += dy[yo]; });
  }

 private:
  int64_t batch_ = 1, pre_ = 1, dim_ = 1, inner_ = 1, per_batch_ = 1;
};

// The shared index walk of GatherNd/ScatterNd: indices (M, N...) address the first M axes of `full`;
// element n of the (N...) positions maps to the slice full[indices[:, n], ...] of `slice` elements.
struct NdIndexer {
  Shape full;
  int64_t m = 0, positions = 0, slice = 1;
  void setup(const Shape& full_shape, const Shape& is, const std::string& op) {
    NN_CHECK(!is.empty() && is[0] <= int64_t(full_shape.size()))
        << op << ": indices " << to_string(is) << " must be (M, ...) with M <= rank of " << to_string(full_shape);
    full = full_shape;
    m = is[0];
    positions = shape_size(is, 1, is.size());
    slice = shape_size(full_shape, size_t(m), full_shape.size());
  }
  // Flat offset of the slice for position n.
  int64_t base(const float* idx, int64_t n, const std::string& op) const {
    int64_t off = 0;
    for (int64_t d = 0; d < m; ++d) off = off * full[d] + index_value(idx[d * positions + n], full[d], op);
    return off * slice;
  }
};

// GatherNd: y[n..., s...] = x[indices[0][n...], ..., indices[M-1][n...], s...].
class GatherNd : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const Shape& is = in[1]->shape();
    ix_.setup(xs, is, "GatherNd");
    Shape ys(is.begin() + 1, is.end());
    ys.insert(ys.end(), xs.begin() + ix_.m, xs.end());
    out[0]->reshape(ys, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const float* idx = in_data(in[1]);
    float* y = out_data(out[0]);
    for (int64_t n = 0; n < ix_.positions; ++n) {
      const int64_t b = ix_.base(idx, n, "GatherNd");
      std::copy(x + b, x + b + ix_.slice, y + n * ix_.slice);
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (prop[1] && !accum[1]) in[1]->grad()->zero();
    if (!prop[0]) return;
    const float* idx = in_data(in[1]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    for (int64_t n = 0; n < ix_.positions; ++n) {
      const int64_t b = ix_.base(idx, n, "GatherNd");
      for (int64_t s = 0; s < ix_.slice; ++s) dx[b + s] += dy[n * ix_.slice + s];
    }
  }

 private:
  NdIndexer ix_;
};

// ScatterNd: y = out (third input) or zeros of `shape`; y[indices[:, n], ...] = data[n, ...] (+= with add).
class ScatterNd : public Function {
 public:
  ScatterNd(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), add_(attrs_.get_bool("add")) {}

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape shape = in.size() == 3 ? in[2]->shape() : attrs_.get_ints("shape", {});
    NN_CHECK(!shape.empty()) << "ScatterNd: the output shape is needed (argument shape, or input out)";
    if (in.size() == 3 && attrs_.has("shape") && !attrs_.get_ints("shape").empty()) {
      NN_CHECK(attrs_.get_ints("shape") == in[2]->shape())
          << "ScatterNd: shape " << to_string(attrs_.get_ints("shape")) << " differs from out "
          << to_string(in[2]->shape());
    }
    const Shape& is = in[1]->shape();
    ix_.setup(shape, is, "ScatterNd");
    Shape ds(is.begin() + 1, is.end());
    ds.insert(ds.end(), shape.begin() + ix_.m, shape.end());
    NN_CHECK(in[0]->shape() == ds) << "ScatterNd: data has shape " << to_string(in[0]->shape()) << ", expected "
                                   << to_string(ds) << " for indices " << to_string(is) << " and shape "
                                   << to_string(shape);
    out[0]->reshape(shape, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* data = in_data(in[0]);
    const float* idx = in_data(in[1]);
    float* y = out_data(out[0]);
    if (in.size() == 3) {
      const float* o = in_data(in[2]);
      std::copy(o, o + out[0]->size(), y);
    } else {
      std::fill(y, y + out[0]->size(), 0.f);
    }
    for (int64_t n = 0; n < ix_.positions; ++n) {
      const int64_t b = ix_.base(idx, n, "ScatterNd");
      for (int64_t s = 0; s < ix_.slice; ++s) y[b + s] = (add_ ? y[b + s] : 0.f) + data[n * ix_.slice + s];
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* idx = in_data(in[1]);
    const float* dy = out_grad(out[0]);
    if (prop[1] && !accum[1]) in[1]->grad()->zero();
    if (prop[0]) {
      float* dd = in_grad(in[0], accum[0]);
      for (int64_t n = 0; n < ix_.positions; ++n) {
        const int64_t b = ix_.base(idx, n, "ScatterNd");
        for (int64_t s = 0; s < ix_.slice; ++s) store_grad(dd, n * ix_.slice + s, dy[b + s], accum[0]);
      }
    }
    if (in.size() == 3 && prop[2]) {
      // out's values survive except where overwritten (without add).
      std::vector<float> g(dy, dy + out[0]->size());
      if (!add_)
        for (int64_t n = 0; n < ix_.positions; ++n) {
          const int64_t b = ix_.base(idx, n, "ScatterNd");
          std::fill(g.begin() + b, g.begin() + b + ix_.slice, 0.f);
        }
      float* dout = in_grad(in[2], accum[2]);
      for (size_t i = 0; i < g.size(); ++i) store_grad(dout, int64_t(i), g[i], accum[2]);
    }
  }

 private:
  bool add_;
  NdIndexer ix_;
};

// ScatterAdd: y = x0; y[p with p[axis] = indices[p]] += x1[p] for every position p of indices.
class ScatterAdd : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& x0 = in[0]->shape();
    const Shape& is = in[1]->shape();
    const Shape& x1 = in[2]->shape();
    axis_ = normalize_axis(attrs_.get_int("axis"), x0.size(), "ScatterAdd: axis");
    NN_CHECK(is.size() == x0.size() && x1.size() == x0.size())
        << "ScatterAdd: x0 " << to_string(x0) << ", indices " << to_string(is) << " and x1 " << to_string(x1)
        << " must have the same rank";
    for (size_t d = 0; d < is.size(); ++d)
      NN_CHECK((int(d) == axis_ || is[d] <= x0[d]) && is[d] <= x1[d])
          << "ScatterAdd: indices " << to_string(is) << " is larger than x0 " << to_string(x0) << " or x1 "
          << to_string(x1) << " at axis " << d;
    out[0]->reshape(x0, true);
  }
  // Calls f(x0 offset, x1 offset) for every element of indices.
  template <class F>
  void walk(const Variables& in, F&& f) const {
    const Shape& is = in[1]->shape();
    const Shape s0 = shape_strides(in[0]->shape()), s1 = shape_strides(in[2]->shape());
    const float* idx = in_data(in[1]);
    const int64_t n = shape_size(is);
    std::vector<int64_t> nd(is.size(), 0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t o0 = 0, o1 = 0;
      for (size_t d = 0; d < is.size(); ++d) {
        o1 += nd[d] * s1[d];
        o0 += (int(d) == axis_ ? index_value(idx[i], in[0]->shape()[d], "ScatterAdd") : nd[d]) * s0[d];
      }
      f(o0, o1);
      for (int d = int(is.size()) - 1; d >= 0; --d) {
        if (++nd[d] < is[d]) break;
        nd[d] = 0;
      }
    }
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x0 = in_data(in[0]);
    const float* x1 = in_data(in[2]);
    float* y = out_data(out[0]);
    std::copy(x0, x0 + in[0]->size(), y);
    walk(in, [&](int64_t o0, int64_t o1) { y[o0] += x1[o1]; });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* dy = out_grad(out[0]);
    if (prop[0]) {
      float* dx0 = in_grad(in[0], accum[0]);
      for (int64_t i = 0; i < in[0]->size(); ++i) store_grad(dx0, i, dy[i], accum[0]);
    }
    if (prop[1] && !accum[1]) in[1]->grad()->zero();
    if (prop[2]) {
      float* dx1 = in_grad_zeroed(in[2], accum[2]);
      walk(in, [&](int64_t o0, int64_t o1) { dx1[o1] += dy[o0]; });
    }
  }

 private:
  int axis_ = 0;
};

}  // namespace

void register_gather(OpRegistry& r) {
  register_cpu<Gather>(r, SchemaBuilder("Gather", "Array Manipulation")
                              .doc("take slices of x along axis at the given indices")
                              .in("x")
                              .in("indices")
                              .arg("axis", AttrType::kInt, AttrValue(int64_t(0)))
                              .arg("batch_dims", AttrType::kInt, AttrValue(int64_t(0)))
                              .out("y")
                              .build());
}

void register_gather_nd(OpRegistry& r) {
  register_cpu<GatherNd>(r, SchemaBuilder("GatherNd", "Array Manipulation")
                                .doc("take slices of x at N-d indices (M, ...)")
                                .in("x")
                                .in("indices")
                                .out("y")
                                .build());
}

void register_scatter_nd(OpRegistry& r) {
  register_cpu<ScatterNd>(r, SchemaBuilder("ScatterNd", "Array Manipulation")
                                 .doc("write data into an array of `shape` (or into out) at N-d indices")
                                 .in("data")
                                 .in("indices")
                                 .in_optional("out")
                                 .arg("shape", AttrType::kInts, std::nullopt, "None")
                                 .arg("add", AttrType::kBool, AttrValue(false))
                                 .out("y")
                                 .build());
}

void register_scatter_add(OpRegistry& r) {
  register_cpu<ScatterAdd>(r, SchemaBuilder("ScatterAdd", "Array Manipulation")
                                  .doc("add x1 into x0 at the indices along axis")
                                  .in("x0")
                                  .in("indices")
                                  .in("x1")
                                  .arg("axis", AttrType::kInt, AttrValue(int64_t(0)))
                                  .out("y")
                                  .build());
}

}  // namespace nn::ops
