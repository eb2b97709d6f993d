// NonZero: the coordinates of the non-zero elements, (ndim, count) with count following the data.
#include <algorithm>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// y (ndim, count): column k holds the coordinates of the k-th non-zero element in C order.
class NonZero : public Function {
 public:
  using Function::Function;
  bool output_size_follows_data() const override { return true; }
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(in[0]->ndim() > 0) << "NonZero: input must have at least 1 dimension";
    out[0]->reshape({in[0]->ndim(), count(in[0])}, true);
  }
  static int64_t count(Variable* x) {
    const float* p = in_data(x);
    return int64_t(std::count_if(p, p + x->size(), [](float v) { return v != 0.f; }));
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const int64_t nd = int64_t(xs.size()), total = count(in[0]);
    out[0]->reshape({nd, total}, true);  // the count follows the data, as upstream
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    for (int64_t i = 0, k = 0; i < in[0]->size(); ++i) {
      if (x[i] == 0.f) continue;
      for (int64_t d = nd - 1, rest = i; d >= 0; --d) {
        y[d * total + k] = float(rest % xs[size_t(d)]);
        rest /= xs[size_t(d)];
      }
      ++k;
    }
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

}  // namespace

void register_nonzero(OpRegistry& r) {
  register_cpu<NonZero>(r, SchemaBuilder("NonZero", "Array Manipulation")
                               .doc("coordinates of the non-zero elements, (ndim, count)")
                               .in("x")
                               .out("y")
                               .build());
}
}  // namespace nn::ops
