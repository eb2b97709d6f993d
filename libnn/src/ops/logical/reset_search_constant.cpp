// ResetNaN / ResetInf (replace NaN or +-Inf by val), Constant (an inputless filled array) and SearchSorted.
#include <algorithm>
#include <cmath>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// y = val where pred(x), else x; dx = 0 where pred(x), else dy.
template <bool kNaN>
class ResetNonFinite : public Function {
 public:
  using Function::Function;

 protected:
  static bool replaced(float v) { return kNaN ? std::isnan(v) : std::isinf(v); }
  void setup_impl(const Variables& in, const Variables& out) override { out[0]->reshape(in[0]->shape(), true); }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const float val = float(attrs_.get_float("val"));
    parallel_for(in[0]->size(), [&](int64_t i) { y[i] = replaced(x[i]) ? val : x[i]; });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* x = in_data(in[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const bool acc = accum[0];
    parallel_for(in[0]->size(), [&](int64_t i) { store_grad(dx, i, replaced(x[i]) ? 0.f : dy[i], acc); });
  }
};

// y of `shape` filled with val; no inputs.
class Constant : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables&, const Variables& out) override {
    Shape shape = attrs_.get_ints("shape");
    for (int64_t d : shape) NN_CHECK(d >= 0) << "Constant: negative dimension in shape " << to_string(shape);
    out[0]->reshape(shape, true);
  }
  void forward_impl(const Variables&, const Variables& out) override {
    std::fill_n(out_data(out[0]), out[0]->size(), float(attrs_.get_float("val")));
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

// For each value, the insertion index into the matching row of sorted_sequence (..., N): the first index
// whose element is >= value (right=false) or > value (right=true). values is (..., M), same leading dims.
class SearchSorted : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& ss = in[0]->shape();
    const Shape& vs = in[1]->shape();
    NN_CHECK(!ss.empty() && ss.size() == vs.size() && std::equal(ss.begin(), ss.end() - 1, vs.begin()))
        << "SearchSorted: sorted_sequence shape " << to_string(ss) << " and values shape " << to_string(vs)
        << " must have the same rank and leading dimensions";
    rows_ = shape_size(ss, 0, ss.size() - 1);
    seq_len_ = ss.back();
    num_values_ = vs.back();
    out[0]->reshape(vs, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* seq = in_data(in[0]);
    const float* v = in_data(in[1]);
    float* y = out_data(out[0]);
    const bool right = attrs_.get_bool("right");
    for (int64_t r = 0; r < rows_; ++r) {
      const float* row = seq + r * seq_len_;
      for (int64_t j = 0; j < num_values_; ++j) {
        const float value = v[r * num_values_ + j];
        const float* pos =
            right ? std::upper_bound(row, row + seq_len_, value) : std::lower_bound(row, row + seq_len_, value);
        y[r * num_values_ + j] = float(pos - row);
      }
    }
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

 private:
  int64_t rows_ = 0, seq_len_ = 0, num_values_ = 0;
};

OpSchema reset_schema(const char* name, const char* doc) {
  return SchemaBuilder(name, "Logical")
      .doc(doc)
      .in("x")
      .arg("val", AttrType::kDouble, AttrValue(0.0))
      .out("y")
      .build();
}

}  // namespace

void register_reset_nan(OpRegistry& r) {
  register_cpu<ResetNonFinite<true>>(r, reset_schema("ResetNaN", "replace NaN by val"));
}
void register_reset_inf(OpRegistry& r) {
  register_cpu<ResetNonFinite<false>>(r, reset_schema("ResetInf", "replace +-Inf by val"));
}
void register_constant(OpRegistry& r) {
  register_cpu<Constant>(r, SchemaBuilder("Constant", "Logical")
                                .doc("array of `shape` filled with val")
                                .arg("val", AttrType::kFloat, AttrValue(0.0))
                                .arg("shape", AttrType::kShape, AttrValue(std::vector<int64_t>{}))
                                .out("y")
                                .build());
}
void register_searchsorted(OpRegistry& r) {
  register_cpu<SearchSorted>(r, SchemaBuilder("SearchSorted", "Logical")
                                    .doc("insertion indices of values into sorted rows")
                                    .in("sorted_sequence")
                                    .in("values")
                                    .arg("right", AttrType::kBool, AttrValue(false))
                                    .out("indices")
                                    .build());
}
}  // namespace nn::ops
