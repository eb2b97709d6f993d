// Exp, Log, Abs and Erf, with graph gradients.
#include "nn/ops/detail/fast_math.hpp"
#include "ops/detail/unary.hpp"

namespace nn::ops {
namespace {
struct ExpOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = false, kUsesOutput = true;
  static float f(float x, const Params&) { return fast::exp(x); }
  static float df(float, float y, const Params&) { return y; }
};
struct LogOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params&) { return std::log(x); }
  static float df(float x, float, const Params&) { return 1.f / x; }
};
struct AbsOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params&) { return std::fabs(x); }
  static float df(float x, float, const Params&) { return x > 0.f ? 1.f : (x < 0.f ? -1.f : 0.f); }
};
struct ErfOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static constexpr float kTwoOverSqrtPi = 1.1283791670955126f;
  static float f(float x, const Params&) { return fast::erf(x); }
  static float df(float x, float, const Params&) { return kTwoOverSqrtPi * std::exp(-x * x); }
};

OpSchema math_schema(const char* name, const char* doc, GradGraphFn grad) {
  return SchemaBuilder(name, "Math").doc(doc).in("x").out("y").grad(std::move(grad)).build();
}
}  // namespace

void register_exp(OpRegistry& r) {
  register_cpu<UnaryFunction<ExpOp>>(r, math_schema("Exp", "y = exp(x)", [](const GradGraphArgs& g) {
                                       return std::vector<VariablePtr>{F::mul2(g.grad_outputs[0], g.outputs[0])};
                                     }));
}
void register_log(OpRegistry& r) {
  register_cpu<UnaryFunction<LogOp>>(r, math_schema("Log", "y = log(x)", [](const GradGraphArgs& g) {
                                       return std::vector<VariablePtr>{F::div2(g.grad_outputs[0], g.inputs[0])};
                                     }));
}
void register_abs(OpRegistry& r) {
  register_cpu<UnaryFunction<AbsOp>>(
      r, math_schema("Abs", "y = |x|", [](const GradGraphArgs& g) {
        // sign(x) with zero at 0, built from comparisons (which carry no
        // gradient).
        auto& x = g.inputs[0];
        auto s = F::sub2(call1("GreaterScalar", {x}, {{"val", 0.0}}), call1("LessScalar", {x}, {{"val", 0.0}}));
        return std::vector<VariablePtr>{F::mul2(g.grad_outputs[0], s)};
      }));
}
void register_erf(OpRegistry& r) {
  register_cpu<UnaryFunction<ErfOp>>(r, math_schema("Erf", "y = erf(x)", [](const GradGraphArgs& g) {
                                       auto& x = g.inputs[0];
                                       auto d = F::mul_scalar(F::exp(F::mul_scalar(F::mul2(x, x), -1.0)),
                                                              ErfOp::kTwoOverSqrtPi);
                                       return std::vector<VariablePtr>{F::mul2(g.grad_outputs[0], d)};
                                     }));
}
}  // namespace nn::ops
