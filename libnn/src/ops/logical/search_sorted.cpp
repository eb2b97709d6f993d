// SearchSorted: the insertion indices of values into the matching sorted rows; not differentiable.
#include <algorithm>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

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

}  // namespace

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
