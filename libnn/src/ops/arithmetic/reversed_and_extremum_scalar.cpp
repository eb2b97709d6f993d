// RSubScalar, RDivScalar, RPowScalar, MaximumScalar, MinimumScalar: elementwise with a scalar `val`.
#include "ops/detail/unary.hpp"
#include "ops/detail/unary_params.hpp"

namespace nn::ops {
namespace {
struct RSubScalarOp {
  using Params = ValParams;
  static constexpr bool kUsesInput = false, kUsesOutput = false;
  static float f(float x, const Params& p) { return p.val - x; }
  static float df(float, float, const Params&) { return -1.f; }
};
struct RDivScalarOp {
  using Params = ValParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params& p) { return p.val / x; }
  static float df(float x, float, const Params& p) { return -p.val / (x * x); }
};
struct RPowScalarOp {
  using Params = ValParams;
  static constexpr bool kUsesInput = false, kUsesOutput = true;
  static float f(float x, const Params& p) { return std::pow(p.val, x); }
  static float df(float, float y, const Params& p) { return y * std::log(p.val); }
};
struct MaximumScalarOp {
  using Params = ValParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params& p) { return x > p.val ? x : p.val; }
  static float df(float x, float, const Params& p) { return x > p.val ? 1.f : 0.f; }
};
struct MinimumScalarOp {
  using Params = ValParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params& p) { return x < p.val ? x : p.val; }
  static float df(float x, float, const Params& p) { return x < p.val ? 1.f : 0.f; }
};

OpSchema scalar_schema(const char* name, const char* doc, GradGraphFn grad) {
  return SchemaBuilder(name, "Arithmetic (scalar)")
      .doc(doc)
      .in("x")
      .arg("val", AttrType::kDouble, AttrValue(1.0))
      .out("y")
      .grad(std::move(grad))
      .build();
}
double val_of(const GradGraphArgs& g) { return g.attrs.get_float("val"); }
}  // namespace

void register_r_sub_scalar(OpRegistry& r) {
  register_cpu<UnaryFunction<RSubScalarOp>>(
      r, scalar_schema("RSubScalar", "y = val - x", [](const GradGraphArgs& g) {
        return std::vector<VariablePtr>{F::mul_scalar(g.grad_outputs[0], -1.0)};
      }));
}
void register_r_div_scalar(OpRegistry& r) {
  register_cpu<UnaryFunction<RDivScalarOp>>(
      r, scalar_schema("RDivScalar", "y = val / x", [](const GradGraphArgs& g) {
        auto& x = g.inputs[0];
        return std::vector<VariablePtr>{F::mul_scalar(F::div2(g.grad_outputs[0], F::mul2(x, x)), -val_of(g))};
      }));
}
void register_r_pow_scalar(OpRegistry& r) {
  register_cpu<UnaryFunction<RPowScalarOp>>(
      r, scalar_schema("RPowScalar", "y = val ^ x", [](const GradGraphArgs& g) {
        return std::vector<VariablePtr>{
            F::mul_scalar(F::mul2(g.grad_outputs[0], g.outputs[0]), std::log(val_of(g)))};
      }));
}
void register_maximum_scalar(OpRegistry& r) {
  register_cpu<UnaryFunction<MaximumScalarOp>>(
      r, scalar_schema("MaximumScalar", "y = max(x, val)", [](const GradGraphArgs& g) {
        auto mask = call1("GreaterScalar", {g.inputs[0]}, {{"val", val_of(g)}});
        return std::vector<VariablePtr>{F::mul2(g.grad_outputs[0], mask)};
      }));
}
void register_minimum_scalar(OpRegistry& r) {
  register_cpu<UnaryFunction<MinimumScalarOp>>(
      r, scalar_schema("MinimumScalar", "y = min(x, val)", [](const GradGraphArgs& g) {
        auto mask = call1("LessScalar", {g.inputs[0]}, {{"val", val_of(g)}});
        return std::vector<VariablePtr>{F::mul2(g.grad_outputs[0], mask)};
      }));
}
}  // namespace nn::ops
