// Piecewise activations: ReLU, LeakyReLU, ELU, SELU, ReLU6, HardSigmoid, HardTanh.
#include "nn/ops/detail/fast_math.hpp"
#include "ops/detail/unary.hpp"
#include "ops/detail/unary_params.hpp"

namespace nn::ops {
namespace {

struct ReLUOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params&) { return x > 0.f ? x : 0.f; }
  static float df(float x, float, const Params&) { return fast::select(x > 0.f, 1.f, 0.f); }
};
struct LeakyReLUOp {
  using Params = AlphaParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params& p) { return x > 0.f ? x : p.alpha * x; }
  static float df(float x, float, const Params& p) { return x > 0.f ? 1.f : p.alpha; }
};
struct ELUOp {
  using Params = AlphaParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params& p) { return x >= 0.f ? x : p.alpha * std::expm1(x); }
  static float df(float x, float, const Params& p) { return x >= 0.f ? 1.f : p.alpha * std::exp(x); }
};
struct SELUOp {
  using Params = SeluParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params& p) { return p.scale * (x > 0.f ? x : p.alpha * std::expm1(x)); }
  static float df(float x, float, const Params& p) { return p.scale * (x > 0.f ? 1.f : p.alpha * std::exp(x)); }
};
struct ReLU6Op {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params&) { return std::min(std::max(x, 0.f), 6.f); }
  static float df(float x, float, const Params&) { return (x > 0.f && x < 6.f) ? 1.f : 0.f; }
};
struct HardSigmoidOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params&) { return std::min(std::max(0.2f * x + 0.5f, 0.f), 1.f); }
  static float df(float x, float, const Params&) { return (x > -2.5f && x < 2.5f) ? 0.2f : 0.f; }
};
struct HardTanhOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true, kUsesOutput = false;
  static float f(float x, const Params&) { return std::min(std::max(x, -1.f), 1.f); }
  static float df(float x, float, const Params&) { return (x > -1.f && x < 1.f) ? 1.f : 0.f; }
};

SchemaBuilder activation(const char* name, const char* doc) {
  SchemaBuilder b(name, "Neural Network Activation Functions");
  b.doc(doc).in("x").out("y");
  return b;
}
}  // namespace

void register_relu(OpRegistry& r) {
  register_cpu<UnaryFunction<ReLUOp>>(
      r, activation("ReLU", "y = max(0, x)").arg("inplace", AttrType::kBool, AttrValue(false)).build());
}
void register_leaky_relu(OpRegistry& r) {
  register_cpu<UnaryFunction<LeakyReLUOp>>(r, activation("LeakyReLU", "y = x > 0 ? x : alpha * x")
                                                  .arg("alpha", AttrType::kFloat, AttrValue(0.1))
                                                  .arg("inplace", AttrType::kBool, AttrValue(false))
                                                  .build());
}
void register_elu(OpRegistry& r) {
  register_cpu<UnaryFunction<ELUOp>>(r, activation("ELU", "y = x >= 0 ? x : alpha * (exp(x) - 1)")
                                            .arg("alpha", AttrType::kDouble, AttrValue(1.0))
                                            .build());
}
void register_selu(OpRegistry& r) {
  register_cpu<UnaryFunction<SELUOp>>(r, activation("SELU", "y = scale * (x > 0 ? x : alpha * (exp(x) - 1))")
                                             .arg("scale", AttrType::kDouble, AttrValue(1.05070098735548))
                                             .arg("alpha", AttrType::kDouble, AttrValue(1.673263242354377))
                                             .build());
}
void register_relu6(OpRegistry& r) {
  register_cpu<UnaryFunction<ReLU6Op>>(r, activation("ReLU6", "y = min(max(0, x), 6)").build());
}
void register_hard_sigmoid(OpRegistry& r) {
  register_cpu<UnaryFunction<HardSigmoidOp>>(r, activation("HardSigmoid", "y = clip(0.2 x + 0.5, 0, 1)").build());
}
void register_hard_tanh(OpRegistry& r) {
  register_cpu<UnaryFunction<HardTanhOp>>(r, activation("HardTanh", "y = clip(x, -1, 1)").build());
}
}  // namespace nn::ops
