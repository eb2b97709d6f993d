// ResetNaN and ResetInf: NaN (or +-Inf) replaced by val; no gradient flows through the replaced elements.
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
}  // namespace nn::ops
