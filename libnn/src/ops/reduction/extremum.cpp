// Max and Min over axes; with_index adds the index output, only_index returns just the index.
#include <algorithm>
#include <cmath>

#include "ops/detail/op_common.hpp"
#include "ops/detail/reduce.hpp"

namespace nn::ops {
namespace {
// Index outputs count positions in the reduced axes flattened in order (C order); ties take the first.
template <bool kMax>
class ArgExtreme : public Function {
 public:
  ArgExtreme(const OpSchema& s, const Context& c, const Attrs& a) : Function(s, c, a), args_(attrs_) {}
  bool grad_depends_input_data(int, int) const override { return false; }
  int num_outputs(const std::vector<Shape>&) const override {
    return args_.with_index && !args_.only_index ? 2 : 1;
  }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    plan_ = make_reduce_plan(in[0]->shape(), attrs_);
    // Empty reduced axes: the value is the operation's identity (-inf for Max, +inf for Min, as ONNX's ReduceMax
    // and ReduceMin); an index of nothing has no value.
    NN_CHECK(plan_.reduce_size > 0 || plan_.out_size == 0 || (!args_.with_index && !args_.only_index))
        << type() << ": no index of an empty array of shape " << to_string(in[0]->shape());
    for (auto* o : out) o->reshape(plan_.out_shape, true);
    index_.assign(size_t(plan_.out_size), 0);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const bool only = args_.only_index;
    float* y = only ? nullptr : out_data(out[0]);
    float* idx = only ? out_data(out[0]) : (out.size() > 1 ? out_data(out[1]) : nullptr);
    if (plan_.reduce_size == 0) {
      if (y) std::fill(y, y + plan_.out_size, kMax ? -INFINITY : INFINITY);
      return;
    }
    parallel_for(plan_.out_size, [&](int64_t o) {
      const float* base = x + plan_.out_offsets[o];
      int64_t best = 0;
      float m = base[plan_.red_offsets[0]];
      for (int64_t r = 1; r < plan_.reduce_size; ++r) {
        float v = base[plan_.red_offsets[r]];
        if (kMax ? v > m : v < m) {
          m = v;
          best = r;
        }
      }
      index_[size_t(o)] = best;
      if (y) y[o] = m;
      if (idx) idx[o] = float(best);
    });
  }
  // The gradient flows from the value output to the selected element; the index output has none.
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    float* dx = in_grad_zeroed(in[0], accum[0]);
    if (args_.only_index || plan_.reduce_size == 0) return;
    const float* dy = out_grad(out[0]);
    for (int64_t o = 0; o < plan_.out_size; ++o)
      dx[plan_.out_offsets[o] + plan_.red_offsets[index_[size_t(o)]]] += dy[o];
  }

 private:
  ArgExtremeArgs args_;
  ReducePlan plan_;
  std::vector<int64_t> index_;
};

OpSchema schema(const char* name, const char* doc) {
  return SchemaBuilder(name, "Reduction")
      .doc(doc)
      .in("x")
      .arg("axes", AttrType::kInts, std::nullopt, "all axes")
      .arg("keep_dims", AttrType::kBool, AttrValue(false))
      .arg("with_index", AttrType::kBool, AttrValue(false))
      .arg("only_index", AttrType::kBool, AttrValue(false))
      .out("y")
      .build();
}
}  // namespace

void register_max(OpRegistry& r) { register_cpu<ArgExtreme<true>>(r, schema("Max", "maximum over axes")); }
void register_min(OpRegistry& r) { register_cpu<ArgExtreme<false>>(r, schema("Min", "minimum over axes")); }
}  // namespace nn::ops
