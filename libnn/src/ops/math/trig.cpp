// Trigonometric and hyperbolic functions and their inverses, with graph gradients so derivatives of any order
// work: Sin, Cos, Tan, Sinh, Cosh, ASin, ACos, ATan, ASinh, ACosh, ATanh; ATan2 (broadcasting).
#include "ops/detail/binary.hpp"
#include "ops/detail/unary.hpp"

namespace nn::ops {
namespace {
#define NN_UNARY_MATH(Name, expr_f, expr_df)                           \
  struct Name##Op {                                                    \
    using Params = NoParams;                                           \
    static constexpr bool kUsesInput = true, kUsesOutput = false;      \
    static float f(float x, const Params&) { return expr_f; }          \
    static float df(float x, float, const Params&) { return expr_df; } \
  };
NN_UNARY_MATH(Sin, std::sin(x), std::cos(x))
NN_UNARY_MATH(Cos, std::cos(x), -std::sin(x))
NN_UNARY_MATH(Tan, std::tan(x), 1.f / (std::cos(x) * std::cos(x)))
NN_UNARY_MATH(Sinh, std::sinh(x), std::cosh(x))
NN_UNARY_MATH(Cosh, std::cosh(x), std::sinh(x))
NN_UNARY_MATH(ASin, std::asin(x), 1.f / std::sqrt(1.f - x * x))
NN_UNARY_MATH(ACos, std::acos(x), -1.f / std::sqrt(1.f - x * x))
NN_UNARY_MATH(ATan, std::atan(x), 1.f / (1.f + x * x))
NN_UNARY_MATH(ASinh, std::asinh(x), 1.f / std::sqrt(x * x + 1.f))
NN_UNARY_MATH(ACosh, std::acosh(x), 1.f / std::sqrt(x * x - 1.f))
NN_UNARY_MATH(ATanh, std::atanh(x), 1.f / (1.f - x * x))
#undef NN_UNARY_MATH

struct NoParams2 {
  explicit NoParams2(const Attrs&) {}
};
struct ATan2Op {
  using Params = NoParams2;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params&) { return std::atan2(a, b); }
  static float da(float a, float b, float, const Params&) { return b / (a * a + b * b); }
  static float db(float a, float b, float, const Params&) { return -a / (a * a + b * b); }
};

// x*x + c as graph nodes.
VariablePtr square_plus(const VariablePtr& x, double c) { return F::add_scalar(F::mul2(x, x), c); }
// 1 - x*x as graph nodes.
VariablePtr one_minus_square(const VariablePtr& x) {
  return F::add_scalar(F::mul_scalar(F::mul2(x, x), -1.0), 1.0);
}

template <class Op>
void reg(OpRegistry& r, const char* name, const char* doc, std::function<VariablePtr(const VariablePtr&)> dydx) {
  register_cpu<UnaryFunction<Op>>(
      r, SchemaBuilder(name, "Math")
             .doc(doc)
             .in("x")
             .out("y")
             .grad([dydx](const GradGraphArgs& g) {
               return std::vector<VariablePtr>{F::mul2(g.grad_outputs[0], dydx(g.inputs[0]))};
             })
             .build());
}
}  // namespace

void register_sin(OpRegistry& r) {
  reg<SinOp>(r, "Sin", "y = sin(x)", [](const VariablePtr& x) { return F::cos(x); });
}
void register_cos(OpRegistry& r) {
  reg<CosOp>(r, "Cos", "y = cos(x)", [](const VariablePtr& x) { return F::mul_scalar(F::sin(x), -1.0); });
}
void register_tan(OpRegistry& r) {
  reg<TanOp>(r, "Tan", "y = tan(x)", [](const VariablePtr& x) {
    auto c = F::cos(x);
    return call1("RDivScalar", {F::mul2(c, c)}, {{"val", 1.0}});
  });
}
void register_sinh(OpRegistry& r) {
  reg<SinhOp>(r, "Sinh", "y = sinh(x)", [](const VariablePtr& x) { return call1("Cosh", {x}); });
}
void register_cosh(OpRegistry& r) {
  reg<CoshOp>(r, "Cosh", "y = cosh(x)", [](const VariablePtr& x) { return call1("Sinh", {x}); });
}
void register_asin(OpRegistry& r) {
  reg<ASinOp>(r, "ASin", "y = asin(x)",
              [](const VariablePtr& x) { return F::pow_scalar(one_minus_square(x), -0.5); });
}
void register_acos(OpRegistry& r) {
  reg<ACosOp>(r, "ACos", "y = acos(x)",
              [](const VariablePtr& x) { return F::mul_scalar(F::pow_scalar(one_minus_square(x), -0.5), -1.0); });
}
void register_atan(OpRegistry& r) {
  reg<ATanOp>(r, "ATan", "y = atan(x)", [](const VariablePtr& x) {
    return call1("RDivScalar", {square_plus(x, 1.0)}, {{"val", 1.0}});
  });
}
void register_asinh(OpRegistry& r) {
  reg<ASinhOp>(r, "ASinh", "y = asinh(x)",
               [](const VariablePtr& x) { return F::pow_scalar(square_plus(x, 1.0), -0.5); });
}
void register_acosh(OpRegistry& r) {
  reg<ACoshOp>(r, "ACosh", "y = acosh(x)",
               [](const VariablePtr& x) { return F::pow_scalar(square_plus(x, -1.0), -0.5); });
}
void register_atanh(OpRegistry& r) {
  reg<ATanhOp>(r, "ATanh", "y = atanh(x)", [](const VariablePtr& x) {
    return call1("RDivScalar", {one_minus_square(x)}, {{"val", 1.0}});
  });
}
void register_atan2(OpRegistry& r) {
  register_cpu<BinaryFunction<ATan2Op>>(
      r, SchemaBuilder("ATan2", "Math").doc("y = atan2(x0, x1)").in("x0").in("x1").out("y").build());
}
}  // namespace nn::ops
