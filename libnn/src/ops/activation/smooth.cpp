// Smooth activations: Sigmoid, Tanh, Swish, GELU, SoftPlus, SoftSign, LogSigmoid, TanhShrink, Sinc, Mish.
#include "nn/ops/detail/fast_math.hpp"
#include "ops/detail/unary.hpp"
#include "ops/detail/unary_params.hpp"
#include "ops/detail/vector_math.hpp"

namespace nn::ops {
namespace {
inline float sigmoid(float x) { return fast::sigmoid(x); }
// log(1 + exp(x)) without overflow.
inline float softplus1(float x) { return std::max(x, 0.f) + std::log1p(std::exp(-std::fabs(x))); }

struct SigmoidOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = false, kUsesOutput = true;
  static float f(float x, const Params&) { return sigmoid(x); }
  static void f_array(const float* x, float* y, int64_t n) { sigmoid_array(x, y, n); }
  static float df(float, float y, const Params&) { return y * (1.f - y); }
};
struct TanhOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = false, kUsesOutput = true;
  static float f(float x, const Params&) { return fast::tanh(x); }
  static float df(float, float y, const Params&) { return 1.f - y * y; }
};
struct SwishOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = true;
  static float f(float x, const Params&) { return x * sigmoid(x); }
  static void f_array(const float* x, float* y, int64_t n) { swish_array(x, y, n); }
  static float df(float x, float y, const Params&) { return y + sigmoid(x) * (1.f - y); }
};
// nnabla's GELU is the tanh approximation.
struct GELUOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static constexpr float kC = 0.7978845608028654f;  // sqrt(2 / pi)
  static constexpr float kA = 0.044715f;
  static float f(float x, const Params&) { return 0.5f * x * (1.f + fast::tanh(kC * (x + kA * x * x * x))); }
  static float df(float x, float, const Params&) {
    float t = fast::tanh(kC * (x + kA * x * x * x));
    return 0.5f * (1.f + t) + 0.5f * x * (1.f - t * t) * kC * (1.f + 3.f * kA * x * x);
  }
};
struct SoftPlusOp {
  using Params = BetaParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params& p) { return softplus1(p.beta * x) / p.beta; }
  static float df(float x, float, const Params& p) { return sigmoid(p.beta * x); }
};
struct SoftSignOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params&) { return x / (1.f + std::fabs(x)); }
  static float df(float x, float, const Params&) {
    float d = 1.f + std::fabs(x);
    return 1.f / (d * d);
  }
};
struct LogSigmoidOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params&) { return -softplus1(-x); }
  static float df(float x, float, const Params&) { return sigmoid(-x); }
};
struct TanhShrinkOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params&) { return x - std::tanh(x); }
  static float df(float x, float, const Params&) {
    float t = std::tanh(x);
    return t * t;
  }
};
struct SincOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params&) { return x == 0.f ? 1.f : std::sin(x) / x; }
  // (cos x - sin x / x) / x cancels badly near 0: use the series -x/3 + x^3/30 there.
  static float df(float x, float, const Params&) {
    if (std::fabs(x) < 1e-2f) return x * (-1.f / 3.f + x * x / 30.f);
    return (std::cos(x) - std::sin(x) / x) / x;
  }
};
struct MishOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params&) { return x * std::tanh(softplus1(x)); }
  static float df(float x, float, const Params&) {
    float t = std::tanh(softplus1(x));
    return t + x * (1.f - t * t) * sigmoid(x);
  }
};

SchemaBuilder activation(const char* name, const char* doc) {
  SchemaBuilder b(name, "Neural Network Activation Functions");
  b.doc(doc).in("x").out("y");
  return b;
}
}  // namespace

void register_sigmoid(OpRegistry& r) {
  register_cpu<UnaryFunction<SigmoidOp>>(r,
                                         activation("Sigmoid", "y = 1 / (1 + exp(-x))")
                                             .grad([](const GradGraphArgs& g) {
                                               auto& y = g.outputs[0];
                                               auto dydx = F::mul2(y, call1("RSubScalar", {y}, {{"val", 1.0}}));
                                               return std::vector<VariablePtr>{F::mul2(g.grad_outputs[0], dydx)};
                                             })
                                             .build());
}
void register_tanh(OpRegistry& r) {
  register_cpu<UnaryFunction<TanhOp>>(r, activation("Tanh", "y = tanh(x)")
                                             .grad([](const GradGraphArgs& g) {
                                               auto& y = g.outputs[0];
                                               auto dydx = call1("RSubScalar", {F::mul2(y, y)}, {{"val", 1.0}});
                                               return std::vector<VariablePtr>{F::mul2(g.grad_outputs[0], dydx)};
                                             })
                                             .build());
}
void register_swish(OpRegistry& r) {
  register_cpu<UnaryFunction<SwishOp>>(r, activation("Swish", "y = x * sigmoid(x)").build());
}
void register_gelu(OpRegistry& r) {
  register_cpu<UnaryFunction<GELUOp>>(
      r, activation("GELU", "y = x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3)))").build());
}
void register_softplus(OpRegistry& r) {
  register_cpu<UnaryFunction<SoftPlusOp>>(r, activation("SoftPlus", "y = log(1 + exp(beta * x)) / beta")
                                                 .arg("beta", AttrType::kDouble, AttrValue(1.0))
                                                 .build());
}
void register_softsign(OpRegistry& r) {
  register_cpu<UnaryFunction<SoftSignOp>>(r, activation("SoftSign", "y = x / (1 + |x|)").build());
}
void register_log_sigmoid(OpRegistry& r) {
  register_cpu<UnaryFunction<LogSigmoidOp>>(r, activation("LogSigmoid", "y = log(sigmoid(x))").build());
}
void register_tanh_shrink(OpRegistry& r) {
  register_cpu<UnaryFunction<TanhShrinkOp>>(r, activation("TanhShrink", "y = x - tanh(x)").build());
}
void register_sinc(OpRegistry& r) {
  register_cpu<UnaryFunction<SincOp>>(r, activation("Sinc", "y = sin(x) / x (1 at 0)").build());
}
void register_mish(OpRegistry& r) {
  register_cpu<UnaryFunction<MishOp>>(r, activation("Mish", "y = x * tanh(softplus(x))").build());
}
}  // namespace nn::ops
