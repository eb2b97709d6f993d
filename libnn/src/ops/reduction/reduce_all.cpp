// ReduceSum and ReduceMean: sum / mean of every element into a 0-d array (upstream's whole-array reductions).
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

template <bool kMean>
class ReduceAll : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override { out[0]->reshape(Shape{}, true); }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const int64_t n = in[0]->size();
    double s = 0;  // double accumulation: the whole array goes into one value
    for (int64_t i = 0; i < n; ++i) s += x[i];
    if (kMean && n > 0) s /= double(n);
    out_data(out[0])[0] = float(s);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const int64_t n = in[0]->size();
    const float g = out_grad(out[0])[0] / (kMean && n > 0 ? float(n) : 1.f);
    float* dx = in_grad(in[0], accum[0]);
    const bool acc = accum[0];
    parallel_for(n, [&](int64_t i) { store_grad(dx, i, g, acc); });
  }
};

}  // namespace

void register_reduce_sum(OpRegistry& r) {
  register_cpu<ReduceAll<false>>(
      r, SchemaBuilder("ReduceSum", "Reduction").doc("sum of all elements").in("x").out("y").build());
}
void register_reduce_mean(OpRegistry& r) {
  register_cpu<ReduceAll<true>>(
      r, SchemaBuilder("ReduceMean", "Reduction").doc("mean of all elements").in("x").out("y").build());
}
}  // namespace nn::ops
