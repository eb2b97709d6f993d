// Assign: copies src into dst (y holds the same values); the gradient goes to dst only, as upstream.
#include <algorithm>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// dst's data <- src's data, y = the same values. Backward passes dy to dst only (as upstream).
class Assign : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(in[0]->shape() == in[1]->shape()) << "Assign: dst shape " << to_string(in[0]->shape())
                                               << " differs from src shape " << to_string(in[1]->shape());
    out[0]->reshape(in[0]->shape(), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* src = in_data(in[1]);
    std::copy_n(src, in[1]->size(), out_data(in[0]));
    std::copy_n(src, in[1]->size(), out_data(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const bool acc = accum[0];
    parallel_for(in[0]->size(), [&](int64_t i) { store_grad(dx, i, dy[i], acc); });
  }
};

}  // namespace

void register_assign(OpRegistry& r) {
  register_cpu<Assign>(r, SchemaBuilder("Assign", "Array Manipulation")
                              .doc("copies src into dst; y has the same values")
                              .in("dst")
                              .in("src")
                              .out("y")
                              .build());
}
}  // namespace nn::ops
