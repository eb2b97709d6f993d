// Identity: y = x.
#include "ops/detail/unary.hpp"

namespace nn::ops {
namespace {
struct IdentityOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = false, kUsesOutput = false;
  static float f(float x, const Params&) { return x; }
  static float df(float, float, const Params&) { return 1.f; }
};
}  // namespace

void register_identity(OpRegistry& r) {
  register_cpu<UnaryFunction<IdentityOp>>(
      r, SchemaBuilder("Identity", "Array Manipulation")
             .doc("y = x")
             .in("x")
             .out("y")
             .grad([](const GradGraphArgs& g) { return std::vector<VariablePtr>{g.grad_outputs[0]}; })
             .build());
}
}  // namespace nn::ops
