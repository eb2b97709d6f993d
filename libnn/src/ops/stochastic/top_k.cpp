// TopKData (the k largest/smallest values per sample, reduced or masked) and TopKGrad (identity whose
// backward keeps only the k largest gradients per sample).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// Positions of the k top entries of v[0..n), best first (ties: lower index first).
void top_k_positions(const float* v, int64_t n, int64_t k, bool use_abs, bool largest, int64_t* pos) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int64_t i) { return use_abs ? std::fabs(v[i]) : v[i]; };
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t a, int64_t b) {
    const float ka = key(a), kb = key(b);
    if (ka != kb) return largest ? ka > kb : ka < kb;
    return a < b;
  });
  std::copy_n(order.begin(), k, pos);
}

struct SampleLayout {
  int64_t outer = 1, inner = 1, k = 1;
};
SampleLayout make_layout(const char* fname, const Shape& xs, int64_t base_axis, int64_t k) {
  NN_CHECK(base_axis >= 0 && base_axis < int64_t(xs.size()))
      << fname << ": base_axis " << base_axis << " out of range for x shape " << to_string(xs);
  SampleLayout l;
  l.outer = shape_size(xs, 0, size_t(base_axis));
  l.inner = shape_size(xs, size_t(base_axis), xs.size());
  NN_CHECK(k >= 1 && k <= l.inner) << fname << ": k=" << k << " must be in [1, " << l.inner << "] for x shape "
                                   << to_string(xs) << " and base_axis " << base_axis;
  l.k = k;
  return l;
}

class TopKData : public Function {
 public:
  TopKData(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), with_index_(attrs_.get_bool("with_index")), reduce_(attrs_.get_bool("reduce")) {}
  int num_outputs(const std::vector<Shape>&) const override { return with_index_ ? 2 : 1; }
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const int64_t base_axis = attrs_.get_int("base_axis");
    layout_ = make_layout("TopKData", xs, base_axis, attrs_.get_int("k", 1));
    Shape reduced(xs.begin(), xs.begin() + base_axis);
    reduced.push_back(layout_.k);
    out[0]->reshape(reduce_ ? reduced : xs, true);
    if (with_index_) out[1]->reshape(reduced, true);
    positions_.assign(size_t(layout_.outer * layout_.k), 0);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const bool use_abs = attrs_.get_bool("abs"), largest = attrs_.get_bool("largest");
    const auto [outer, inner, k] = layout_;
    if (!reduce_) std::fill_n(y, in[0]->size(), 0.f);
    for (int64_t s = 0; s < outer; ++s) {
      int64_t* pos = positions_.data() + s * k;
      top_k_positions(x + s * inner, inner, k, use_abs, largest, pos);
      for (int64_t j = 0; j < k; ++j) {
        if (reduce_)
          y[s * k + j] = x[s * inner + pos[j]];
        else
          y[s * inner + pos[j]] = x[s * inner + pos[j]];
        if (with_index_) out_data(out[1])[s * k + j] = float(pos[j]);
      }
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    const auto [outer, inner, k] = layout_;
    for (int64_t s = 0; s < outer; ++s)
      for (int64_t j = 0; j < k; ++j) {
        const int64_t p = s * inner + positions_[size_t(s * k + j)];
        dx[p] += reduce_ ? dy[s * k + j] : dy[p];
      }
  }

 private:
  bool with_index_, reduce_;
  SampleLayout layout_;
  std::vector<int64_t> positions_;  // per sample, the selected positions (set by forward)
};

class TopKGrad : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    layout_ = make_layout("TopKGrad", in[0]->shape(), attrs_.get_int("base_axis"), attrs_.get_int("k", 1));
    out[0]->reshape(in[0]->shape(), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    std::copy_n(in_data(in[0]), in[0]->size(), out_data(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    const auto [outer, inner, k] = layout_;
    const bool use_abs = attrs_.get_bool("abs");
    std::vector<int64_t> pos(static_cast<size_t>(k));
    for (int64_t s = 0; s < outer; ++s) {
      top_k_positions(dy + s * inner, inner, k, use_abs, true, pos.data());
      for (int64_t p : pos) dx[s * inner + p] += dy[s * inner + p];
    }
  }

 private:
  SampleLayout layout_;
};

}  // namespace

void register_top_k_data(OpRegistry& r) {
  register_cpu<TopKData>(r, SchemaBuilder("TopKData", "Stochasticity")
                                .doc("the k largest (or smallest) values per sample")
                                .in("x")
                                .arg("k", AttrType::kInt)
                                .arg("abs", AttrType::kBool, AttrValue(false))
                                .arg("reduce", AttrType::kBool, AttrValue(true))
                                .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
                                .arg("largest", AttrType::kBool, AttrValue(true))
                                .arg("with_index", AttrType::kBool, AttrValue(false))
                                .out("y")
                                .out_variadic("indices")
                                .build());
}
void register_top_k_grad(OpRegistry& r) {
  register_cpu<TopKGrad>(r, SchemaBuilder("TopKGrad", "Stochasticity")
                                .doc("identity; backward keeps the k largest gradients per sample")
                                .in("x")
                                .arg("k", AttrType::kInt)
                                .arg("abs", AttrType::kBool, AttrValue(false))
                                .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
                                .out("y")
                                .build());
}
}  // namespace nn::ops
