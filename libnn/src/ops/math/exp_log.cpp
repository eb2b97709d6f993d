// Exp, Log, Abs, Erf with graph gradients; Sign, Round, Ceil, Floor with straight-through gradients.
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
  static float f(float x, const Params&) { return std::erf(x); }
  static float df(float x, float, const Params&) { return kTwoOverSqrtPi * std::exp(-x * x); }
};
struct SignParams {
  float alpha;
  explicit SignParams(const Attrs& a) : alpha(float(a.get_float("alpha"))) {}
};
// Straight-through estimators: the gradient passes unchanged (upstream).
struct SignOp {
  using Params = SignParams;
  static constexpr bool kUsesInput = false, kUsesOutput = false;
  static float f(float x, const Params& p) { return x > 0.f ? 1.f : (x < 0.f ? -1.f : p.alpha); }
  static float df(float, float, const Params&) { return 1.f; }
};
struct RoundOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = false, kUsesOutput = false;
  static float f(float x, const Params&) { return std::round(x); }
  static float df(float, float, const Params&) { return 1.f; }
};
struct CeilOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = false, kUsesOutput = false;
  static float f(float x, const Params&) { return std::ceil(x); }
  static float df(float, float, const Params&) { return 1.f; }
};
struct FloorOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = false, kUsesOutput = false;
  static float f(float x, const Params&) { return std::floor(x); }
  static float df(float, float, const Params&) { return 1.f; }
};

OpSchema math_schema(const char* name, const char* doc, GradGraphFn grad) {
  return SchemaBuilder(name, "Math").doc(doc).in("x").out("y").grad(std::move(grad)).build();
}
std::vector<VariablePtr> pass_through(const GradGraphArgs& g) { return {g.grad_outputs[0]}; }
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
void register_sign(OpRegistry& r) {
  register_cpu<UnaryFunction<SignOp>>(r,
                                      SchemaBuilder("Sign", "Arithmetic (scalar)")
                                          .doc("y = 1 (x > 0), -1 (x < 0), alpha (x == 0); straight-through grad")
                                          .in("x")
                                          .arg("alpha", AttrType::kFloat, AttrValue(1.0))
                                          .out("y")
                                          .grad(pass_through)
                                          .build());
}
void register_round(OpRegistry& r) {
  register_cpu<UnaryFunction<RoundOp>>(r,
                                       math_schema("Round", "y = round(x); straight-through grad", pass_through));
}
void register_ceil(OpRegistry& r) {
  register_cpu<UnaryFunction<CeilOp>>(r, math_schema("Ceil", "y = ceil(x); straight-through grad", pass_through));
}
void register_floor(OpRegistry& r) {
  register_cpu<UnaryFunction<FloorOp>>(r,
                                       math_schema("Floor", "y = floor(x); straight-through grad", pass_through));
}
}  // namespace nn::ops
