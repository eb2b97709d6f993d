// Pow2, Maximum2, Minimum2: broadcasting binary ops with graph gradients.
#include <cmath>

#include "ops/arithmetic/broadcast_grad.hpp"
#include "ops/detail/binary.hpp"

namespace nn::ops {
namespace {
struct NoBinaryParams {
  explicit NoBinaryParams(const Attrs&) {}
};
struct Pow2Op {
  using Params = NoBinaryParams;
  static constexpr bool kUsesOutput = true;
  static float f(float a, float b, const Params&) { return std::pow(a, b); }
  static float da(float a, float b, float, const Params&) { return b * std::pow(a, b - 1.f); }
  static float db(float a, float, float y, const Params&) { return y * std::log(a); }
};
// Ties send the gradient to x1, as upstream.
struct Maximum2Op {
  using Params = NoBinaryParams;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params&) { return a > b ? a : b; }
  static float da(float a, float b, float, const Params&) { return a > b ? 1.f : 0.f; }
  static float db(float a, float b, float, const Params&) { return a > b ? 0.f : 1.f; }
};
struct Minimum2Op {
  using Params = NoBinaryParams;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params&) { return a < b ? a : b; }
  static float da(float a, float b, float, const Params&) { return a < b ? 1.f : 0.f; }
  static float db(float a, float b, float, const Params&) { return a < b ? 0.f : 1.f; }
};

OpSchema schema(const char* name, const char* doc, bool inplace_arg, GradGraphFn grad) {
  SchemaBuilder b(name, "Arithmetic");
  b.doc(doc).in("x0").in("x1").out("y").grad(std::move(grad));
  if (inplace_arg) b.arg("inplace", AttrType::kBool, AttrValue(false));
  return b.build();
}

// Gradient of an elementwise selection: gy masked by mask_a for x0 and by mask_b for x1.
std::vector<VariablePtr> masked_grads(const GradGraphArgs& g, const char* mask_a, const char* mask_b) {
  auto& a = g.inputs[0];
  auto& b = g.inputs[1];
  auto& gy = g.grad_outputs[0];
  return {reduce_to(F::mul2(gy, call1(mask_a, {a, b})), a->shape()),
          reduce_to(F::mul2(gy, call1(mask_b, {a, b})), b->shape())};
}
}  // namespace

void register_pow2(OpRegistry& r) {
  register_cpu<BinaryFunction<Pow2Op>>(
      r, schema("Pow2", "y = x0 ^ x1", true, [](const GradGraphArgs& g) {
        auto& a = g.inputs[0];
        auto& b = g.inputs[1];
        auto& gy = g.grad_outputs[0];
        auto ga = F::mul2(gy, F::mul2(b, call1("Pow2", {a, F::add_scalar(b, -1.0)})));
        auto gb = F::mul2(gy, F::mul2(g.outputs[0], F::log(a)));
        return std::vector<VariablePtr>{reduce_to(ga, a->shape()), reduce_to(gb, b->shape())};
      }));
}
void register_maximum2(OpRegistry& r) {
  register_cpu<BinaryFunction<Maximum2Op>>(
      r, schema("Maximum2", "y = max(x0, x1)", false,
                [](const GradGraphArgs& g) { return masked_grads(g, "Greater", "LessEqual"); }));
}
void register_minimum2(OpRegistry& r) {
  register_cpu<BinaryFunction<Minimum2Op>>(
      r, schema("Minimum2", "y = min(x0, x1)", false,
                [](const GradGraphArgs& g) { return masked_grads(g, "Less", "GreaterEqual"); }));
}
}  // namespace nn::ops
