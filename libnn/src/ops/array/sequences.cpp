// Arange and Linspace (inputless generators), Sort (values and/or indices along an axis) and Shift
// (deterministic shift with nearest or reflect borders).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// Arange: start, start + step, ... while < stop (> stop for a negative step).
class Arange : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables&, const Variables& out) override {
    start_ = attrs_.get_float("start", 0.0);
    step_ = attrs_.get_float("step");
    const double stop = attrs_.get_float("stop", 0.0);
    NN_CHECK(step_ != 0) << "Arange: step must not be 0";
    const double n = std::ceil((stop - start_) / step_);
    NN_CHECK(n <= double(kMaxArrayElements)) << "Arange: too many elements (" << n << ")";
    out[0]->reshape({int64_t(std::max(0.0, n))}, true);
  }
  void forward_impl(const Variables&, const Variables& out) override {
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < out[0]->size(); ++i) y[i] = float(start_ + double(i) * step_);
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

 private:
  double start_ = 0, step_ = 1;
};

// Linspace: num evenly spaced values from start to stop, both included.
class Linspace : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables&, const Variables& out) override {
    const int64_t num = attrs_.get_int("num", 0);
    NN_CHECK(num >= 0 && num <= kMaxArrayElements) << "Linspace: num must be >= 0, got " << num;
    out[0]->reshape({num}, true);
  }
  void forward_impl(const Variables&, const Variables& out) override {
    const double start = attrs_.get_float("start", 0.0), stop = attrs_.get_float("stop", 0.0);
    const int64_t num = out[0]->size();
    float* y = out_data(out[0]);
    const double step = num > 1 ? (stop - start) / double(num - 1) : 0.0;
    for (int64_t i = 0; i < num; ++i) y[i] = float(i + 1 == num && num > 1 ? stop : start + double(i) * step);
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

// Sort along axis (ascending, or descending with reverse). Outputs: sorted values, plus their source
// indices with with_index; only the indices with only_index. Gradients flow back through the permutation.
class Sort : public Function {
 public:
  Sort(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a),
        reverse_(attrs_.get_bool("reverse")),
        with_index_(attrs_.get_bool("with_index")),
        only_index_(attrs_.get_bool("only_index")) {}
  int num_outputs(const std::vector<Shape>&) const override { return with_index_ && !only_index_ ? 2 : 1; }
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    NN_CHECK(!xs.empty()) << "Sort: input must have at least 1 dimension";
    NN_CHECK(int(out.size()) == num_outputs({}))
        << "Sort: expects " << num_outputs({}) << " outputs, got " << out.size();
    const int axis = normalize_axis(attrs_.get_int("axis"), xs.size(), "Sort: axis");
    outer_ = shape_size(xs, 0, axis);
    len_ = xs[axis];
    inner_ = shape_size(xs, axis + 1, xs.size());
    for (auto* o : out) o->reshape(xs, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    order_.resize(size_t(in[0]->size()));
    std::vector<int64_t> line(static_cast<size_t>(len_));
    for (int64_t o = 0; o < outer_; ++o)
      for (int64_t k = 0; k < inner_; ++k) {
        const int64_t base = o * len_ * inner_ + k;
        std::iota(line.begin(), line.end(), 0);
        std::stable_sort(line.begin(), line.end(), [&](int64_t a, int64_t b) {
          const float va = x[base + a * inner_], vb = x[base + b * inner_];
          return reverse_ ? va > vb : va < vb;
        });
        for (int64_t t = 0; t < len_; ++t) order_[base + t * inner_] = line[t];
      }
    const int64_t n = in[0]->size();
    float* values = only_index_ ? nullptr : out_data(out[0]);
    float* index = only_index_ ? out_data(out[0]) : with_index_ ? out_data(out[1]) : nullptr;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t src = source(i);
      if (values) values[i] = x[src];
      if (index) index[i] = float(order_[i]);
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    float* dx = in_grad_zeroed(in[0], accum[0]);
    if (only_index_) return;  // indices carry no gradient
    const float* dy = out_grad(out[0]);
    for (int64_t i = 0; i < in[0]->size(); ++i) dx[source(i)] += dy[i];
  }

 private:
  // Flat input index of output element i.
  int64_t source(int64_t i) const {
    const int64_t k = i % inner_, o = i / (len_ * inner_);
    return (o * len_ + order_[i]) * inner_ + k;
  }
  bool reverse_, with_index_, only_index_;
  int64_t outer_ = 1, len_ = 1, inner_ = 1;
  std::vector<int64_t> order_;  // per output element: source position along the axis
};

// Shift: y[i] = x[i - shift] per axis (trailing axes get the listed shifts), out-of-range positions take
// the nearest border element or its mirror (reflect).
class Shift : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    auto shifts = attrs_.get_ints("shifts", {});
    NN_CHECK(shifts.size() <= xs.size()) << "Shift: " << shifts.size() << " shifts for input " << to_string(xs);
    const std::string mode = attrs_.get_string("border_mode");
    NN_CHECK(mode == "nearest" || mode == "reflect")
        << "Shift: border_mode must be nearest or reflect, got '" << mode << "'";
    shifts.insert(shifts.begin(), xs.size() - shifts.size(), 0);
    tables_.assign(xs.size(), {});
    for (size_t d = 0; d < xs.size(); ++d) {
      const int64_t n = xs[d];
      for (int64_t i = 0; i < n; ++i) {
        int64_t j = i - shifts[d];
        if (mode == "nearest") {
          j = std::clamp<int64_t>(j, 0, n - 1);
        } else {
          const int64_t period = 2 * n;
          j = ((j % period) + period) % period;
          if (j >= n) j = period - 1 - j;
        }
        tables_[d].push_back(j);
      }
    }
    out[0]->reshape(xs, true);
  }
  template <class F>
  void walk(const Shape& s, F&& f) const {
    const Shape strides = shape_strides(s);
    std::vector<int64_t> idx(s.size(), 0);
    for (int64_t i = 0; i < shape_size(s); ++i) {
      int64_t off = 0;
      for (size_t d = 0; d < s.size(); ++d) off += tables_[d][idx[d]] * strides[d];
      f(i, off);
      for (int d = int(s.size()) - 1; d >= 0; --d) {
        if (++idx[d] < s[d]) break;
        idx[d] = 0;
      }
    }
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    walk(in[0]->shape(), [&](int64_t i, int64_t src) { y[i] = x[src]; });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    walk(in[0]->shape(), [&](int64_t i, int64_t src) { dx[src] += dy[i]; });
  }

 private:
  std::vector<std::vector<int64_t>> tables_;  // per axis: output index -> input index
};

}  // namespace

void register_arange(OpRegistry& r) {
  register_cpu<Arange>(r, SchemaBuilder("Arange", "Logical")
                              .doc("values from start to stop (excluded) by step")
                              .arg("start", AttrType::kFloat)
                              .arg("stop", AttrType::kFloat)
                              .arg("step", AttrType::kFloat, AttrValue(1.0))
                              .out("y")
                              .build());
}

void register_linspace(OpRegistry& r) {
  register_cpu<Linspace>(r, SchemaBuilder("Linspace", "Logical")
                                .doc("num evenly spaced values from start to stop")
                                .arg("start", AttrType::kFloat)
                                .arg("stop", AttrType::kFloat)
                                .arg("num", AttrType::kInt)
                                .out("y")
                                .build());
}

void register_sort(OpRegistry& r) {
  register_cpu<Sort>(r, SchemaBuilder("Sort", "Array Manipulation")
                            .doc("sort along axis; values, values and indices, or indices only")
                            .in("x")
                            .arg("axis", AttrType::kInt, AttrValue(int64_t(-1)))
                            .arg("reverse", AttrType::kBool, AttrValue(false))
                            .arg("with_index", AttrType::kBool, AttrValue(false))
                            .arg("only_index", AttrType::kBool, AttrValue(false))
                            .out("y")
                            .out_variadic("i")
                            .build());
}

void register_shift(OpRegistry& r) {
  register_cpu<Shift>(r, SchemaBuilder("Shift", "Array Manipulation")
                             .doc("shift along the trailing axes with nearest or reflect borders")
                             .in("x")
                             .arg("shifts", AttrType::kInts, std::nullopt, "0s")
                             .arg("border_mode", AttrType::kString, AttrValue(std::string("nearest")))
                             .out("y")
                             .build());
}

}  // namespace nn::ops
