// Mod2 and BitShift (broadcasting, no gradient) against double references.
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.hpp"
#include "ref_broadcast.hpp"

using namespace nn::test;

namespace {
template <class F>
Reference binary_ref(F f) {
  return
      [f](const RefInputs& in, const nn::Attrs&) { return std::vector<RefArray>{broadcast_ref(in[0], in[1], f)}; };
}
}  // namespace

TEST(Mod2, FloatRemainderWithBroadcast) {
  std::mt19937 rng(4);
  auto a = random_input({2, 3}, rng, -5, 5);
  RefArray b{{1, 3}, {1.5, -2.0, 0.75}};
  for (bool fmod : {false, true})
    run_op_test(
        {"Mod2", {{"fmod", fmod}}, {a, b}, binary_ref([](double x, double y) { return std::fmod(x, y); })});
}

TEST(BitShift, LeftAndRight) {
  RefArray x{{2, 3}, {1, 3, 7, 64, 255, -8}};
  RefArray s{{1, 3}, {0, 2, 3}};
  run_op_test({"BitShift", {}, {x, s}, binary_ref([](double v, double k) { return v * std::pow(2.0, k); })});
  RefArray xp{{2, 3}, {1, 3, 7, 64, 255, 1000}};
  run_op_test({"BitShift", {{"direction", std::string("RIGHT")}}, {xp, s}, binary_ref([](double v, double k) {
                 return std::floor(v / std::pow(2.0, k));
               })});
}
