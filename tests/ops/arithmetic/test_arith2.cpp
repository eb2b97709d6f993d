// Add2/Sub2/Mul2/Div2 (with broadcasting) and the scalar family against double references.
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"

using namespace nn::test;

namespace {
// numpy-style broadcast of two reference arrays through f.
RefArray broadcast2(const RefArray& a, const RefArray& b, double (*f)(double, double)) {
  size_t nd = std::max(a.shape.size(), b.shape.size());
  nn::Shape pa(nd, 1), pb(nd, 1), out(nd);
  std::copy(a.shape.begin(), a.shape.end(), pa.begin() + (nd - a.shape.size()));
  std::copy(b.shape.begin(), b.shape.end(), pb.begin() + (nd - b.shape.size()));
  for (size_t i = 0; i < nd; ++i) out[i] = std::max(pa[i], pb[i]);
  RefArray y{out, std::vector<double>(size_t(ref_size(out)))};
  for (int64_t i = 0; i < ref_size(out); ++i) {
    int64_t rem = i, ia = 0, ib = 0, sa = 1, sb = 1;
    for (int d = int(nd) - 1; d >= 0; --d) {
      int64_t k = rem % out[d];
      rem /= out[d];
      ia += (pa[d] == 1 ? 0 : k) * sa;
      ib += (pb[d] == 1 ? 0 : k) * sb;
      sa *= pa[d];
      sb *= pb[d];
    }
    y.data[size_t(i)] = f(a.data[size_t(ia)], b.data[size_t(ib)]);
  }
  return y;
}

Reference binary_ref(double (*f)(double, double)) {
  return [f](const RefInputs& in, const nn::Attrs&) { return std::vector<RefArray>{broadcast2(in[0], in[1], f)}; };
}

void check_binary(const char* op, double (*f)(double, double), double lo = -1, double hi = 1) {
  std::mt19937 rng(3);
  run_op_test({op, {}, {random_input({2, 3, 4}, rng, lo, hi), random_input({2, 3, 4}, rng, lo, hi)}, binary_ref(f)});
  run_op_test({op, {}, {random_input({2, 3, 4}, rng, lo, hi), random_input({3, 1}, rng, lo, hi)}, binary_ref(f)});
  run_op_test({op, {}, {random_input({1, 4}, rng, lo, hi), random_input({3, 1}, rng, lo, hi)}, binary_ref(f)});
}
}  // namespace

TEST(Add2, ForwardBackwardBroadcast) { check_binary("Add2", [](double a, double b) { return a + b; }); }
TEST(Sub2, ForwardBackwardBroadcast) { check_binary("Sub2", [](double a, double b) { return a - b; }); }
TEST(Mul2, ForwardBackwardBroadcast) { check_binary("Mul2", [](double a, double b) { return a * b; }); }
TEST(Div2, ForwardBackwardBroadcast) { check_binary("Div2", [](double a, double b) { return a / b; }, 0.5, 2.0); }

namespace {
Reference scalar_ref(double (*f)(double, double)) {
  return [f](const RefInputs& in, const nn::Attrs& a) {
    RefArray y = in[0];
    double v = a.get_float("val", 1.0);
    for (auto& x : y.data) x = f(x, v);
    return std::vector<RefArray>{y};
  };
}
}  // namespace

TEST(AddScalar, ForwardBackward) {
  std::mt19937 rng(4);
  run_op_test({"AddScalar", {{"val", 2.5}}, {random_input({3, 4}, rng)}, scalar_ref([](double x, double v) { return x + v; })});
}
TEST(MulScalar, ForwardBackward) {
  std::mt19937 rng(5);
  run_op_test({"MulScalar", {{"val", -1.5}}, {random_input({3, 4}, rng)}, scalar_ref([](double x, double v) { return x * v; })});
}
TEST(PowScalar, ForwardBackward) {
  std::mt19937 rng(6);
  run_op_test({"PowScalar", {{"val", 2.5}}, {random_input({3, 4}, rng, 0.5, 2.0)},
               scalar_ref([](double x, double v) { return std::pow(x, v); })});
}
