// Elementwise losses: SigmoidCrossEntropy, BinaryCrossEntropy, SquaredError, AbsoluteError, HuberLoss,
// EpsilonInsensitiveLoss (the last four broadcast as upstream's binary transforms).
#include <cmath>
#include <limits>

#include "ops/detail/binary.hpp"
#include "ops/detail/unary_params.hpp"

namespace nn::ops {
namespace {
constexpr float kTiny = std::numeric_limits<float>::min();
struct NoLossParams {
  explicit NoLossParams(const Attrs&) {}
};

// Stable form: max(x, 0) - x t + log(1 + exp(-|x|)).
struct SigmoidCrossEntropyOp {
  using Params = NoLossParams;
  static constexpr bool kUsesOutput = false;
  static float f(float x, float t, const Params&) {
    return std::max(x, 0.f) - x * t + std::log1p(std::exp(-std::fabs(x)));
  }
  static float da(float x, float t, float, const Params&) { return 1.f / (1.f + std::exp(-x)) - t; }
  static float db(float, float, float, const Params&) { return 0.f; }
};
struct BinaryCrossEntropyOp {
  using Params = NoLossParams;
  static constexpr bool kUsesOutput = false;
  static float f(float x, float t, const Params&) {
    return -(t * std::log(std::max(x, kTiny)) + (1.f - t) * std::log(std::max(1.f - x, kTiny)));
  }
  static float da(float x, float t, float, const Params&) { return (x - t) / std::max(x - x * x, kTiny); }
  static float db(float x, float, float, const Params&) {
    return std::log(std::max(1.f - x, kTiny)) - std::log(std::max(x, kTiny));
  }
};
struct SquaredErrorOp {
  using Params = NoLossParams;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params&) { return (a - b) * (a - b); }
  static float da(float a, float b, float, const Params&) { return 2.f * (a - b); }
  static float db(float a, float b, float, const Params&) { return -2.f * (a - b); }
};
struct AbsoluteErrorOp {
  using Params = NoLossParams;
  static constexpr bool kUsesOutput = false;
  static float sign(float d) { return d > 0.f ? 1.f : (d < 0.f ? -1.f : 0.f); }
  static float f(float a, float b, const Params&) { return std::fabs(a - b); }
  static float da(float a, float b, float, const Params&) { return sign(a - b); }
  static float db(float a, float b, float, const Params&) { return -sign(a - b); }
};
// d^2 inside |d| < delta, delta (2|d| - delta) outside.
struct HuberLossOp {
  using Params = DeltaParams;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params& p) {
    float ad = std::fabs(a - b);
    return ad < p.delta ? ad * ad : p.delta * (2.f * ad - p.delta);
  }
  static float da(float a, float b, float, const Params& p) {
    float d = a - b;
    return 2.f * (std::fabs(d) < p.delta ? d : (d > 0.f ? p.delta : -p.delta));
  }
  static float db(float a, float b, float y, const Params& p) { return -da(a, b, y, p); }
};
struct EpsilonParams {
  float epsilon;
  explicit EpsilonParams(const Attrs& a) : epsilon(float(a.get_float("epsilon", 0.0))) {}
};
struct EpsilonInsensitiveLossOp {
  using Params = EpsilonParams;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params& p) {
    float ad = std::fabs(a - b);
    return ad > p.epsilon ? ad - p.epsilon : 0.f;
  }
  static float da(float a, float b, float, const Params& p) {
    float d = a - b;
    return std::fabs(d) > p.epsilon ? (d > 0.f ? 1.f : -1.f) : 0.f;
  }
  static float db(float a, float b, float y, const Params& p) { return -da(a, b, y, p); }
};

// Same-shape variant (upstream's cross entropies require equal shapes); kLabelGrad=false rejects a
// gradient request for the target as upstream does.
template <class Op, bool kLabelGrad>
class SameShapeLoss : public BinaryFunction<Op> {
 public:
  using BinaryFunction<Op>::BinaryFunction;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(in[0]->shape() == in[1]->shape())
        << this->type() << ": x shape " << to_string(in[0]->shape()) << " and target shape "
        << to_string(in[1]->shape()) << " must match";
    BinaryFunction<Op>::setup_impl(in, out);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    NN_CHECK(kLabelGrad || !prop[1]) << this->type() << ": no gradient with respect to the target (input 1)";
    BinaryFunction<Op>::backward_impl(in, out, prop, accum);
  }
};

SchemaBuilder loss(const char* name, const char* doc, const char* in0, const char* in1) {
  SchemaBuilder b(name, "Loss Functions");
  b.doc(doc).in(in0).in(in1).out("y");
  return b;
}
}  // namespace

void register_sigmoid_cross_entropy(OpRegistry& r) {
  register_cpu<SameShapeLoss<SigmoidCrossEntropyOp, false>>(
      r,
      loss("SigmoidCrossEntropy", "y = -(t log s + (1 - t) log(1 - s)), s = sigmoid(x)", "x", "target").build());
}
void register_binary_cross_entropy(OpRegistry& r) {
  register_cpu<SameShapeLoss<BinaryCrossEntropyOp, true>>(
      r, loss("BinaryCrossEntropy", "y = -(t log x + (1 - t) log(1 - x))", "x", "target").build());
}
void register_squared_error(OpRegistry& r) {
  register_cpu<BinaryFunction<SquaredErrorOp>>(r, loss("SquaredError", "y = (x0 - x1)^2", "x0", "x1").build());
}
void register_absolute_error(OpRegistry& r) {
  register_cpu<BinaryFunction<AbsoluteErrorOp>>(r, loss("AbsoluteError", "y = |x0 - x1|", "x0", "x1").build());
}
void register_huber_loss(OpRegistry& r) {
  register_cpu<BinaryFunction<HuberLossOp>>(
      r, loss("HuberLoss", "d^2 if |d| < delta else delta (2|d| - delta)", "x0", "x1")
             .arg("delta", AttrType::kFloat, AttrValue(1.0))
             .build());
}
void register_epsilon_insensitive_loss(OpRegistry& r) {
  register_cpu<BinaryFunction<EpsilonInsensitiveLossOp>>(
      r, loss("EpsilonInsensitiveLoss", "max(|x0 - x1| - epsilon, 0)", "x0", "x1")
             .arg("epsilon", AttrType::kFloat)
             .build());
}
}  // namespace nn::ops
