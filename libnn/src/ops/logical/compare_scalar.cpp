// Logical and comparison ops against a scalar `val`, and LogicalNot, IsNaN, IsInf: 0/1 outputs, zero
// gradient.
#include "ops/detail/unary.hpp"

namespace nn::ops {
namespace {
struct BoolVal {
  bool val;
  explicit BoolVal(const Attrs& a) : val(a.get_bool("val", false)) {}
};
struct FloatVal {
  float val;
  explicit FloatVal(const Attrs& a) : val(float(a.get_float("val"))) {}
};
// A 0/1-valued unary op built from Pred::test(x, params).
template <class Pred>
struct Predicate1 {
  using Params = typename Pred::Params;
  static constexpr bool kUsesInput = false, kUsesOutput = false;
  static float f(float x, const Params& p) { return Pred::test(x, p) ? 1.f : 0.f; }
  static float df(float, float, const Params&) { return 0.f; }
};
struct AndS {
  using Params = BoolVal;
  static bool test(float x, const Params& p) { return (x != 0.f) && p.val; }
};
struct OrS {
  using Params = BoolVal;
  static bool test(float x, const Params& p) { return (x != 0.f) || p.val; }
};
struct XorS {
  using Params = BoolVal;
  static bool test(float x, const Params& p) { return (x != 0.f) != p.val; }
};
struct EqS {
  using Params = FloatVal;
  static bool test(float x, const Params& p) { return x == p.val; }
};
struct NeS {
  using Params = FloatVal;
  static bool test(float x, const Params& p) { return x != p.val; }
};
struct GeS {
  using Params = FloatVal;
  static bool test(float x, const Params& p) { return x >= p.val; }
};
struct GtS {
  using Params = FloatVal;
  static bool test(float x, const Params& p) { return x > p.val; }
};
struct LeS {
  using Params = FloatVal;
  static bool test(float x, const Params& p) { return x <= p.val; }
};
struct LtS {
  using Params = FloatVal;
  static bool test(float x, const Params& p) { return x < p.val; }
};
struct NotP {
  using Params = NoParams;
  static bool test(float x, const Params&) { return x == 0.f; }
};
struct NaNP {
  using Params = NoParams;
  static bool test(float x, const Params&) { return std::isnan(x); }
};
struct InfP {
  using Params = NoParams;
  static bool test(float x, const Params&) { return std::isinf(x); }
};

template <class Pred>
void reg(OpRegistry& r, const char* name, const char* doc, std::optional<AttrType> val_type,
         std::optional<AttrValue> def = std::nullopt) {
  SchemaBuilder b(name, "Logical");
  b.doc(doc).in("x").out("y");
  if (val_type) b.arg("val", *val_type, def);
  register_cpu<UnaryFunction<Predicate1<Pred>>>(r, b.build());
}
}  // namespace

void register_logical_and_scalar(OpRegistry& r) {
  reg<AndS>(r, "LogicalAndScalar", "y = x && val", AttrType::kBool);
}
void register_logical_or_scalar(OpRegistry& r) { reg<OrS>(r, "LogicalOrScalar", "y = x || val", AttrType::kBool); }
void register_logical_xor_scalar(OpRegistry& r) {
  reg<XorS>(r, "LogicalXorScalar", "y = x xor val", AttrType::kBool);
}
void register_equal_scalar(OpRegistry& r) { reg<EqS>(r, "EqualScalar", "y = x == val", AttrType::kDouble, 1.0); }
void register_not_equal_scalar(OpRegistry& r) {
  reg<NeS>(r, "NotEqualScalar", "y = x != val", AttrType::kDouble, 1.0);
}
void register_greater_equal_scalar(OpRegistry& r) {
  reg<GeS>(r, "GreaterEqualScalar", "y = x >= val", AttrType::kDouble, 1.0);
}
void register_greater_scalar(OpRegistry& r) {
  reg<GtS>(r, "GreaterScalar", "y = x > val", AttrType::kDouble, 1.0);
}
void register_less_equal_scalar(OpRegistry& r) {
  reg<LeS>(r, "LessEqualScalar", "y = x <= val", AttrType::kDouble, 1.0);
}
void register_less_scalar(OpRegistry& r) { reg<LtS>(r, "LessScalar", "y = x < val", AttrType::kDouble, 1.0); }
void register_logical_not(OpRegistry& r) { reg<NotP>(r, "LogicalNot", "y = !x", std::nullopt); }
void register_isnan(OpRegistry& r) { reg<NaNP>(r, "IsNaN", "y = isnan(x)", std::nullopt); }
void register_isinf(OpRegistry& r) { reg<InfP>(r, "IsInf", "y = isinf(x)", std::nullopt); }
}  // namespace nn::ops
