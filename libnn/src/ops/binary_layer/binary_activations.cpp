// BinarySigmoid and BinaryTanh: step functions forward, straight-through gradients inside |x| < 1 backward.
#include "ops/detail/unary.hpp"

namespace nn::ops {
namespace {
struct BinarySigmoidOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true;
  static constexpr bool kUsesOutput = false;
  static float f(float x, const Params&) { return x > 0.f ? 1.f : 0.f; }
  static float df(float x, float, const Params&) { return std::fabs(x) >= 1.f ? 0.f : 0.5f; }
};
struct BinaryTanhOp {
  using Params = NoParams;
  static constexpr bool kUsesInput = true;
  static constexpr bool kUsesOutput = false;
  static float f(float x, const Params&) { return x > 0.f ? 1.f : -1.f; }
  static float df(float x, float, const Params&) { return std::fabs(x) >= 1.f ? 0.f : 1.f; }
};
}  // namespace

void register_binary_sigmoid(OpRegistry& r) {
  register_cpu<UnaryFunction<BinarySigmoidOp>>(r,
                                               SchemaBuilder("BinarySigmoid", "Quantization Neural Network Layers")
                                                   .doc("y = x > 0 ? 1 : 0; gradient 0.5 where |x| < 1")
                                                   .in("x")
                                                   .out("y")
                                                   .build());
}
void register_binary_tanh(OpRegistry& r) {
  register_cpu<UnaryFunction<BinaryTanhOp>>(r, SchemaBuilder("BinaryTanh", "Quantization Neural Network Layers")
                                                   .doc("y = x > 0 ? 1 : -1; gradient 1 where |x| < 1")
                                                   .in("x")
                                                   .out("y")
                                                   .build());
}

}  // namespace nn::ops
