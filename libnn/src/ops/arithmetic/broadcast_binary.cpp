// Two-input arithmetic with numpy broadcasting and graph gradients: Add2, Sub2, Mul2, Div2, BcAdd2 (Add2
// under upstream's other name), Pow2, Maximum2, Minimum2.
#include <cmath>

#include "ops/arithmetic/broadcast_grad.hpp"
#include "ops/detail/binary.hpp"

namespace nn::ops {
namespace {
struct NoBinaryParams {
  explicit NoBinaryParams(const Attrs&) {}
};
struct Add2Op {
  using Params = NoBinaryParams;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params&) { return a + b; }
  static float da(float, float, float, const Params&) { return 1.f; }
  static float db(float, float, float, const Params&) { return 1.f; }
};
struct Sub2Op {
  using Params = NoBinaryParams;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params&) { return a - b; }
  static float da(float, float, float, const Params&) { return 1.f; }
  static float db(float, float, float, const Params&) { return -1.f; }
};
struct Mul2Op {
  using Params = NoBinaryParams;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params&) { return a * b; }
  static float da(float, float b, float, const Params&) { return b; }
  static float db(float a, float, float, const Params&) { return a; }
};
struct Div2Op {
  using Params = NoBinaryParams;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params&) { return a / b; }
  static float da(float, float b, float, const Params&) { return 1.f / b; }
  static float db(float a, float b, float, const Params&) { return -a / (b * b); }
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

// x0, x1 -> y; `inplace` (a hint nncli ignores) on all but Maximum2 and Minimum2, as upstream.
OpSchema binary_schema(const char* name, const char* doc, GradGraphFn grad, bool inplace_arg = true) {
  SchemaBuilder b(name, "Arithmetic");
  b.doc(doc).in("x0").in("x1");
  if (inplace_arg) b.arg("inplace", AttrType::kBool, AttrValue(false));
  return b.out("y").grad(std::move(grad)).build();
}

// Gradient of an addition: gy summed to each input's shape.
std::vector<VariablePtr> add_grads(const GradGraphArgs& g) {
  auto& gy = g.grad_outputs[0];
  return {reduce_to(gy, g.inputs[0]->shape()), reduce_to(gy, g.inputs[1]->shape())};
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

void register_add2(OpRegistry& r) {
  register_cpu<BinaryFunction<Add2Op>>(r, binary_schema("Add2", "y = x0 + x1", add_grads));
}
void register_bc_add2(OpRegistry& r) {
  register_cpu<BinaryFunction<Add2Op>>(r,
                                       binary_schema("BcAdd2", "y = x0 + x1 with numpy broadcasting", add_grads));
}
void register_sub2(OpRegistry& r) {
  register_cpu<BinaryFunction<Sub2Op>>(r, binary_schema("Sub2", "y = x0 - x1", [](const GradGraphArgs& g) {
                                         auto& gy = g.grad_outputs[0];
                                         return std::vector<VariablePtr>{
                                             reduce_to(gy, g.inputs[0]->shape()),
                                             reduce_to(F::mul_scalar(gy, -1.0), g.inputs[1]->shape())};
                                       }));
}
void register_mul2(OpRegistry& r) {
  register_cpu<BinaryFunction<Mul2Op>>(r, binary_schema("Mul2", "y = x0 * x1", [](const GradGraphArgs& g) {
                                         auto& gy = g.grad_outputs[0];
                                         return std::vector<VariablePtr>{
                                             reduce_to(F::mul2(gy, g.inputs[1]), g.inputs[0]->shape()),
                                             reduce_to(F::mul2(gy, g.inputs[0]), g.inputs[1]->shape())};
                                       }));
}
void register_div2(OpRegistry& r) {
  register_cpu<BinaryFunction<Div2Op>>(
      r, binary_schema("Div2", "y = x0 / x1", [](const GradGraphArgs& g) {
        auto& gy = g.grad_outputs[0];
        auto& a = g.inputs[0];
        auto& b = g.inputs[1];
        auto gb = F::mul_scalar(F::div2(F::mul2(gy, a), F::mul2(b, b)), -1.0);
        return std::vector<VariablePtr>{reduce_to(F::div2(gy, b), a->shape()), reduce_to(gb, b->shape())};
      }));
}
void register_pow2(OpRegistry& r) {
  register_cpu<BinaryFunction<Pow2Op>>(
      r, binary_schema("Pow2", "y = x0 ^ x1", [](const GradGraphArgs& g) {
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
      r, binary_schema(
             "Maximum2", "y = max(x0, x1)",
             [](const GradGraphArgs& g) { return masked_grads(g, "Greater", "LessEqual"); }, false));
}
void register_minimum2(OpRegistry& r) {
  register_cpu<BinaryFunction<Minimum2Op>>(
      r, binary_schema(
             "Minimum2", "y = min(x0, x1)",
             [](const GradGraphArgs& g) { return masked_grads(g, "Less", "GreaterEqual"); }, false));
}
}  // namespace nn::ops
