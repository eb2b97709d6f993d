// Unique: the distinct values (flatten) or distinct slices along `axis`, optionally with the first-occurrence
// indices, the inverse indices and the counts as extra outputs. Forward-only, as upstream.
#include <algorithm>
#include <numeric>
#include <vector>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class Unique : public Function {
 public:
  using Function::Function;
  bool output_size_follows_data() const override { return true; }
  bool has_backward() const override { return false; }
  int num_outputs(const std::vector<Shape>&) const override {
    return 1 + int(attrs_.get_bool("with_index")) + int(attrs_.get_bool("with_inverse")) +
           int(attrs_.get_bool("with_counts"));
  }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    flatten_ = attrs_.get_bool("flatten");
    axis_ = attrs_.get_int("axis", 0);
    if (!flatten_) {
      NN_CHECK(!xs.empty() && axis_ >= -int64_t(xs.size()) && axis_ < int64_t(xs.size()))
          << "Unique: axis " << axis_ << " is out of range for x " << to_string(xs);
      if (axis_ < 0) axis_ += int64_t(xs.size());
    }
    // The output sizes depend on the data: computed here (as upstream) and again in forward.
    run(in, out);
  }
  void forward_impl(const Variables& in, const Variables& out) override { run(in, out); }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

 private:
  void run(const Variables& in, const Variables& out) {
    const Shape& xs = in[0]->shape();
    const float* x = in_data(in[0]);
    // View x as rows: flatten -> (size, 1); else (xs[axis], outer * inner) taken along the axis.
    int64_t outer = 1, inner = 1, rows = in[0]->size();
    if (!flatten_) {
      rows = xs[size_t(axis_)];
      for (int64_t d = 0; d < axis_; ++d) outer *= xs[size_t(d)];
      for (size_t d = size_t(axis_) + 1; d < xs.size(); ++d) inner *= xs[d];
    }
    const int64_t cols = flatten_ ? 1 : outer * inner;
    std::vector<float> table(static_cast<size_t>(rows * cols));
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i)
          table[size_t(r * cols + o * inner + i)] = x[(o * rows + r) * inner + i];
    auto row = [&](int64_t r) { return table.begin() + r * cols; };

    std::vector<int64_t> order(static_cast<size_t>(rows));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return std::lexicographical_compare(row(a), row(a) + cols, row(b), row(b) + cols);
    });
    std::vector<int64_t> first, counts, inverse(static_cast<size_t>(rows));
    for (size_t i = 0; i < order.size(); ++i) {
      const int64_t r = order[i];
      if (i == 0 || !std::equal(row(r), row(r) + cols, row(order[i - 1]))) {
        first.push_back(r);
        counts.push_back(0);
      }
      inverse[size_t(r)] = int64_t(first.size()) - 1;
      ++counts.back();
    }
    const int64_t n = int64_t(first.size());
    // Output order: sorted values, or order of first appearance.
    std::vector<int64_t> pos(static_cast<size_t>(n));
    std::iota(pos.begin(), pos.end(), 0);
    if (!attrs_.get_bool("sorted"))
      std::sort(pos.begin(), pos.end(), [&](int64_t a, int64_t b) { return first[size_t(a)] < first[size_t(b)]; });
    std::vector<int64_t> rank(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) rank[size_t(pos[size_t(i)])] = i;

    Shape ys = flatten_ ? Shape{n} : xs;
    if (!flatten_) ys[size_t(axis_)] = n;
    out[0]->reshape(ys, true);
    float* y = out_data(out[0]);
    for (int64_t u = 0; u < n; ++u)
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i)
          y[(o * n + u) * inner + i] = row(first[size_t(pos[size_t(u)])])[o * inner + i];
    size_t next = 1;
    auto emit = [&](int64_t len, auto value) {
      out[next]->reshape({len}, true);
      float* p = out_data(out[next++]);
      for (int64_t i = 0; i < len; ++i) p[i] = float(value(i));
    };
    if (attrs_.get_bool("with_index")) emit(n, [&](int64_t u) { return first[size_t(pos[size_t(u)])]; });
    if (attrs_.get_bool("with_inverse")) emit(rows, [&](int64_t r) { return rank[size_t(inverse[size_t(r)])]; });
    if (attrs_.get_bool("with_counts")) emit(n, [&](int64_t u) { return counts[size_t(pos[size_t(u)])]; });
  }

  bool flatten_ = true;
  int64_t axis_ = 0;
};

}  // namespace

void register_unique(OpRegistry& r) {
  register_cpu<Unique>(r, SchemaBuilder("Unique", "Unsupported, Special Use")
                              .doc("distinct values or slices, with optional indices, inverse and counts")
                              .in("x")
                              .arg("flatten", AttrType::kBool, AttrValue(true))
                              .arg("axis", AttrType::kInt, std::nullopt, "None")
                              .arg("sorted", AttrType::kBool, AttrValue(true))
                              .arg("with_index", AttrType::kBool, AttrValue(false))
                              .arg("with_inverse", AttrType::kBool, AttrValue(false))
                              .arg("with_counts", AttrType::kBool, AttrValue(false))
                              .out("y")
                              .out("indices")
                              .out("inverse_indices")
                              .out("counts")
                              .build());
}

}  // namespace nn::ops
