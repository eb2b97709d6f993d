// Logical and comparison ops (LogicalAnd ... Less, broadcasting) giving 0/1; forward only, zero gradient.
#include "ops/detail/binary.hpp"

namespace nn::ops {
namespace {
struct NoParams2 {
  explicit NoParams2(const Attrs&) {}
};
// A 0/1-valued binary op: the gradient is zero almost everywhere, as upstream (no gradient flows).
template <class Pred>
struct Predicate2 {
  using Params = NoParams2;
  static constexpr bool kUsesOutput = false;
  static float f(float a, float b, const Params&) { return Pred::test(a, b) ? 1.f : 0.f; }
  static float da(float, float, float, const Params&) { return 0.f; }
  static float db(float, float, float, const Params&) { return 0.f; }
};
struct AndPred {
  static bool test(float a, float b) { return (a != 0.f) && (b != 0.f); }
};
struct OrPred {
  static bool test(float a, float b) { return (a != 0.f) || (b != 0.f); }
};
struct XorPred {
  static bool test(float a, float b) { return (a != 0.f) != (b != 0.f); }
};
struct EqualPred {
  static bool test(float a, float b) { return a == b; }
};
struct NotEqualPred {
  static bool test(float a, float b) { return a != b; }
};
struct GreaterEqualPred {
  static bool test(float a, float b) { return a >= b; }
};
struct GreaterPred {
  static bool test(float a, float b) { return a > b; }
};
struct LessEqualPred {
  static bool test(float a, float b) { return a <= b; }
};
struct LessPred {
  static bool test(float a, float b) { return a < b; }
};

template <class Pred>
void register_predicate(OpRegistry& r, const char* name, const char* doc) {
  register_cpu<BinaryFunction<Predicate2<Pred>>>(
      r, SchemaBuilder(name, "Logical").doc(doc).in("x0").in("x1").out("y").build());
}
}  // namespace

void register_logical_and(OpRegistry& r) { register_predicate<AndPred>(r, "LogicalAnd", "y = x0 && x1"); }
void register_logical_or(OpRegistry& r) { register_predicate<OrPred>(r, "LogicalOr", "y = x0 || x1"); }
void register_logical_xor(OpRegistry& r) { register_predicate<XorPred>(r, "LogicalXor", "y = x0 xor x1"); }
void register_equal(OpRegistry& r) { register_predicate<EqualPred>(r, "Equal", "y = x0 == x1"); }
void register_not_equal(OpRegistry& r) { register_predicate<NotEqualPred>(r, "NotEqual", "y = x0 != x1"); }
void register_greater_equal(OpRegistry& r) {
  register_predicate<GreaterEqualPred>(r, "GreaterEqual", "y = x0 >= x1");
}
void register_greater(OpRegistry& r) { register_predicate<GreaterPred>(r, "Greater", "y = x0 > x1"); }
void register_less_equal(OpRegistry& r) { register_predicate<LessEqualPred>(r, "LessEqual", "y = x0 <= x1"); }
void register_less(OpRegistry& r) { register_predicate<LessPred>(r, "Less", "y = x0 < x1"); }
}  // namespace nn::ops
