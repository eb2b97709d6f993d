// Sign, Round, Ceil and Floor: piecewise-constant functions with straight-through gradients (upstream).
#include "ops/detail/unary.hpp"

namespace nn::ops {
namespace {
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
