// Sin and Cos, with graph gradients so derivatives of any order work.
#include "ops/detail/unary.hpp"

namespace nn::ops {
namespace {
struct SinOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params&) { return std::sin(x); }
  static float df(float x, float, const Params&) { return std::cos(x); }
};
struct CosOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params&) { return std::cos(x); }
  static float df(float x, float, const Params&) { return -std::sin(x); }
};
}  // namespace

void register_sin(OpRegistry& r) {
  register_cpu<UnaryFunction<SinOp>>(
      r, SchemaBuilder("Sin", "Math")
             .doc("y = sin(x)")
             .in("x")
             .out("y")
             .grad([](const GradGraphArgs& g) {
               return std::vector<VariablePtr>{F::mul2(g.grad_outputs[0], F::cos(g.inputs[0]))};
             })
             .build());
}

void register_cos(OpRegistry& r) {
  register_cpu<UnaryFunction<CosOp>>(r, SchemaBuilder("Cos", "Math")
                                            .doc("y = cos(x)")
                                            .in("x")
                                            .out("y")
                                            .grad([](const GradGraphArgs& g) {
                                              return std::vector<VariablePtr>{F::mul2(
                                                  g.grad_outputs[0], F::mul_scalar(F::sin(g.inputs[0]), -1.0))};
                                            })
                                            .build());
}
}  // namespace nn::ops
