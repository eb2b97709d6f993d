// Add2, Sub2, Mul2, Div2 with numpy broadcasting and graph gradients.
#include "ops/arithmetic/broadcast_grad.hpp"
#include "ops/detail/binary.hpp"

namespace nn::ops {
namespace {
struct InplaceParams {
  explicit InplaceParams(const Attrs&) {}
};
struct Add2Op {
  using Params = InplaceParams;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params&) { return a + b; }
  static float da(float, float, float, const Params&) { return 1.f; }
  static float db(float, float, float, const Params&) { return 1.f; }
};
struct Sub2Op {
  using Params = InplaceParams;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params&) { return a - b; }
  static float da(float, float, float, const Params&) { return 1.f; }
  static float db(float, float, float, const Params&) { return -1.f; }
};
struct Mul2Op {
  using Params = InplaceParams;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params&) { return a * b; }
  static float da(float, float b, float, const Params&) { return b; }
  static float db(float a, float, float, const Params&) { return a; }
};
struct Div2Op {
  using Params = InplaceParams;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params&) { return a / b; }
  static float da(float, float b, float, const Params&) { return 1.f / b; }
  static float db(float a, float b, float, const Params&) { return -a / (b * b); }
};

OpSchema binary_schema(const char* name, const char* doc, GradGraphFn grad) {
  return SchemaBuilder(name, "Arithmetic")
      .doc(doc)
      .in("x0")
      .in("x1")
      .arg("inplace", AttrType::kBool, AttrValue(false))
      .out("y")
      .grad(std::move(grad))
      .build();
}
}  // namespace

void register_add2(OpRegistry& r) {
  register_cpu<BinaryFunction<Add2Op>>(
      r, binary_schema("Add2", "y = x0 + x1", [](const GradGraphArgs& g) {
        auto& gy = g.grad_outputs[0];
        return std::vector<VariablePtr>{reduce_to(gy, g.inputs[0]->shape()), reduce_to(gy, g.inputs[1]->shape())};
      }));
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
}  // namespace nn::ops
