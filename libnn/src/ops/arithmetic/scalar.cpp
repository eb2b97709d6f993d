// AddScalar, MulScalar, PowScalar: elementwise with a scalar `val`.
#include "ops/detail/unary.hpp"
#include "ops/detail/unary_params.hpp"

namespace nn::ops {
namespace {
struct AddScalarOp {
  using Params = ValParams;
  static constexpr bool kUsesInput = false, kUsesOutput = false;
  static float f(float x, const Params& p) { return x + p.val; }
  static float df(float, float, const Params&) { return 1.f; }
};
struct MulScalarOp {
  using Params = ValParams;
  static constexpr bool kUsesInput = false, kUsesOutput = false;
  static float f(float x, const Params& p) { return x * p.val; }
  static float df(float, float, const Params& p) { return p.val; }
};
struct PowScalarOp {
  using Params = ValParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params& p) { return p.val == 2.f ? x * x : std::pow(x, p.val); }  // as ORT
  static float df(float x, float, const Params& p) { return p.val * std::pow(x, p.val - 1.f); }
};

OpSchema scalar_schema(const char* name, const char* doc, double def, GradGraphFn grad) {
  return SchemaBuilder(name, "Arithmetic (scalar)")
      .doc(doc)
      .in("x")
      .arg("val", AttrType::kDouble, AttrValue(def))
      .arg("inplace", AttrType::kBool, AttrValue(false))
      .out("y")
      .grad(std::move(grad))
      .build();
}
}  // namespace

void register_add_scalar(OpRegistry& r) {
  register_cpu<UnaryFunction<AddScalarOp>>(
      r, scalar_schema("AddScalar", "y = x + val", 1.0,
                       [](const GradGraphArgs& g) { return std::vector<VariablePtr>{g.grad_outputs[0]}; }));
}
void register_mul_scalar(OpRegistry& r) {
  register_cpu<UnaryFunction<MulScalarOp>>(
      r, scalar_schema("MulScalar", "y = x * val", 1.0, [](const GradGraphArgs& g) {
        return std::vector<VariablePtr>{F::mul_scalar(g.grad_outputs[0], g.attrs.get_float("val"))};
      }));
}
void register_pow_scalar(OpRegistry& r) {
  register_cpu<UnaryFunction<PowScalarOp>>(
      r, scalar_schema("PowScalar", "y = x ^ val", 1.0, [](const GradGraphArgs& g) {
        double v = g.attrs.get_float("val");
        auto d = F::mul_scalar(F::pow_scalar(g.inputs[0], v - 1.0), v);
        return std::vector<VariablePtr>{F::mul2(g.grad_outputs[0], d)};
      }));
}
}  // namespace nn::ops
