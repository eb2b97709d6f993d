// Sum over axes (nnabla: axes default all, keep_dims false).
#include "ops/detail/op_common.hpp"
#include "ops/detail/reduce.hpp"

namespace nn::ops {
namespace {
class Sum : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    plan_ = make_reduce_plan(in[0]->shape(), attrs_);
    out[0]->reshape(plan_.out_shape, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    reduce_sum(plan_, x, y);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    broadcast_back(plan_, out_grad(out[0]), in_grad(in[0], accum[0]), accum[0], 1.f);
  }

 private:
  ReducePlan plan_;
};
}  // namespace

void register_sum(OpRegistry& r) {
  register_cpu<Sum>(r, SchemaBuilder("Sum", "Reduction")
                           .doc("sum over axes")
                           .in("x")
                           .arg("axes", AttrType::kInts, std::nullopt, "all axes")
                           .arg("keep_dims", AttrType::kBool, AttrValue(false))
                           .out("y")
                           .build());
}
}  // namespace nn::ops
