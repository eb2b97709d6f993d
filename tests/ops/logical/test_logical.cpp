// Logical and comparison ops (broadcasting, scalar, LogicalNot, IsNaN, IsInf): forward only, 0/1 outputs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "op_tester.hpp"
#include "ref_broadcast.hpp"

using namespace nn::test;

namespace {
using Pred2 = bool (*)(double, double);
// Small integers in [-2, 2], so equalities and zeros occur often.
RefArray small_ints(const nn::Shape& s, std::mt19937& rng) {
  RefArray a = random_labels(s, rng, 5);
  for (auto& v : a.data) v -= 2;
  return a;
}
OpTestCase forward_case(const char* op, nn::Attrs attrs, std::vector<RefArray> inputs, Reference ref) {
  OpTestCase tc{op, std::move(attrs), std::move(inputs), std::move(ref)};
  tc.check_backward = false;
  return tc;
}
void check2(const char* op, Pred2 f) {
  std::mt19937 rng(41);
  Reference ref = [f](const RefInputs& in, const nn::Attrs&) {
    return std::vector<RefArray>{broadcast_ref(in[0], in[1], f)};
  };
  run_op_test(forward_case(op, {}, {small_ints({3, 4}, rng), small_ints({3, 4}, rng)}, ref));
  run_op_test(forward_case(op, {}, {small_ints({2, 3, 4}, rng), small_ints({3, 1}, rng)}, ref));
}
void check_scalar(const char* op, nn::Attrs attrs, bool (*f)(double, const nn::Attrs&)) {
  std::mt19937 rng(42);
  Reference ref = [f](const RefInputs& in, const nn::Attrs& a) {
    RefArray y = in[0];
    for (auto& v : y.data) v = f(v, a) ? 1.0 : 0.0;
    return std::vector<RefArray>{y};
  };
  run_op_test(forward_case(op, attrs, {small_ints({4, 5}, rng)}, ref));
}
double val(const nn::Attrs& a) { return a.get_float("val", 1.0); }
bool bval(const nn::Attrs& a) { return a.get_bool("val", false); }
}  // namespace

TEST(LogicalAnd, Broadcast) {
  check2("LogicalAnd", [](double a, double b) { return a != 0 && b != 0; });
}
TEST(LogicalOr, Broadcast) {
  check2("LogicalOr", [](double a, double b) { return a != 0 || b != 0; });
}
TEST(LogicalXor, Broadcast) {
  check2("LogicalXor", [](double a, double b) { return (a != 0) != (b != 0); });
}
TEST(Equal, Broadcast) {
  check2("Equal", [](double a, double b) { return a == b; });
}
TEST(NotEqual, Broadcast) {
  check2("NotEqual", [](double a, double b) { return a != b; });
}
TEST(GreaterEqual, Broadcast) {
  check2("GreaterEqual", [](double a, double b) { return a >= b; });
}
TEST(Greater, Broadcast) {
  check2("Greater", [](double a, double b) { return a > b; });
}
TEST(LessEqual, Broadcast) {
  check2("LessEqual", [](double a, double b) { return a <= b; });
}
TEST(Less, Broadcast) {
  check2("Less", [](double a, double b) { return a < b; });
}

TEST(LogicalAndScalar, TrueAndFalse) {
  for (bool v : {true, false})
    check_scalar("LogicalAndScalar", {{"val", v}}, [](double x, const nn::Attrs& a) { return x != 0 && bval(a); });
}
TEST(LogicalOrScalar, TrueAndFalse) {
  for (bool v : {true, false})
    check_scalar("LogicalOrScalar", {{"val", v}}, [](double x, const nn::Attrs& a) { return x != 0 || bval(a); });
}
TEST(LogicalXorScalar, TrueAndFalse) {
  for (bool v : {true, false})
    check_scalar("LogicalXorScalar", {{"val", v}},
                 [](double x, const nn::Attrs& a) { return (x != 0) != bval(a); });
}
TEST(EqualScalar, DefaultAndValue) {
  auto f = [](double x, const nn::Attrs& a) { return x == val(a); };
  check_scalar("EqualScalar", {}, f);
  check_scalar("EqualScalar", {{"val", -2.0}}, f);
}
TEST(NotEqualScalar, Value) {
  check_scalar("NotEqualScalar", {{"val", 0.0}}, [](double x, const nn::Attrs& a) { return x != val(a); });
}
TEST(GreaterEqualScalar, Value) {
  check_scalar("GreaterEqualScalar", {{"val", 0.0}}, [](double x, const nn::Attrs& a) { return x >= val(a); });
}
TEST(GreaterScalar, Value) {
  check_scalar("GreaterScalar", {{"val", 0.0}}, [](double x, const nn::Attrs& a) { return x > val(a); });
}
TEST(LessEqualScalar, Value) {
  check_scalar("LessEqualScalar", {{"val", 1.0}}, [](double x, const nn::Attrs& a) { return x <= val(a); });
}
TEST(LessScalar, Value) {
  check_scalar("LessScalar", {{"val", 1.0}}, [](double x, const nn::Attrs& a) { return x < val(a); });
}
TEST(LogicalNot, Forward) {
  check_scalar("LogicalNot", {}, [](double x, const nn::Attrs&) { return x == 0; });
}
TEST(IsNaN, Forward) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  run_op_test(
      forward_case("IsNaN", {}, {RefArray{{4}, {1.0, nan, inf, -2.0}}}, [](const RefInputs&, const nn::Attrs&) {
        return std::vector<RefArray>{RefArray{{4}, {0, 1, 0, 0}}};
      }));
}
TEST(IsInf, Forward) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  run_op_test(
      forward_case("IsInf", {}, {RefArray{{4}, {1.0, nan, inf, -inf}}}, [](const RefInputs&, const nn::Attrs&) {
        return std::vector<RefArray>{RefArray{{4}, {0, 0, 1, 1}}};
      }));
}
