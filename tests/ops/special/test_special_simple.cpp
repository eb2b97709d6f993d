// Unlink, Sink, EyeLike, Mod2, BitShift against double references.
#include <gtest/gtest.h>

#include <cmath>

#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {
Reference identity_ref() {
  return [](const RefInputs& in, const nn::Attrs&) { return std::vector<RefArray>{in[0]}; };
}

// Broadcast (same rank, dims 1 or equal) elementwise reference.
Reference binary_ref(std::function<double(double, double)> f) {
  return [f](const RefInputs& in, const nn::Attrs&) {
    const auto& a = in[0];
    const auto& b = in[1];
    nn::Shape ys(a.shape.size());
    for (size_t d = 0; d < ys.size(); ++d) ys[d] = std::max(a.shape[d], b.shape[d]);
    RefArray y{ys, std::vector<double>(size_t(ref_size(ys)))};
    for (int64_t i = 0; i < ref_size(ys); ++i) {
      int64_t rest = i, ia = 0, ib = 0, sa = 1, sb = 1;
      for (int d = int(ys.size()) - 1; d >= 0; --d) {
        int64_t c = rest % ys[d];
        rest /= ys[d];
        if (a.shape[d] != 1) ia += c * sa;
        if (b.shape[d] != 1) ib += c * sb;
        sa *= a.shape[d];
        sb *= b.shape[d];
      }
      y.data[size_t(i)] = f(a.data[size_t(ia)], b.data[size_t(ib)]);
    }
    return std::vector<RefArray>{y};
  };
}
}  // namespace

TEST(Unlink, IdentityWithoutGradient) {
  std::mt19937 rng(1);
  OpTestCase tc{"Unlink", {}, {random_input({3, 4}, rng)}, identity_ref()};
  tc.check_backward = false;  // no gradient flows through Unlink
  run_op_test(tc);
  EXPECT_FALSE(nn::OpRegistry::instance().create("Unlink", {}, nn::cpu_context())->has_backward());
}

TEST(Sink, SeedsOnesIntoInputGrads) {
  std::mt19937 rng(2);
  Reference ref = [](const RefInputs&, const nn::Attrs&) { return std::vector<RefArray>{{{}, {0.0}}}; };
  OpTestCase tc{"Sink", {}, {random_input({2, 3}, rng), random_input({4}, rng)}, ref};
  tc.check_backward = false;  // the backward seeds ones, not a derivative; checked below
  run_op_test(tc);
  for (bool one : {true, false}) {
    auto f = nn::OpRegistry::instance().create("Sink", {{"one_input_grad", one}}, nn::cpu_context());
    auto a = nn::Variable::create({2, 3}, true), b = nn::Variable::create({4}, true), y = nn::Variable::create();
    a->grad()->fill(5);
    b->grad()->fill(5);
    f->setup({a.get(), b.get()}, {y.get()});
    f->forward({a.get(), b.get()}, {y.get()});
    f->backward({a.get(), b.get()}, {y.get()}, {true, true}, {false, false});
    for (float v : a->grad()->to_vector()) EXPECT_EQ(v, one ? 1.f : 5.f);
    for (float v : b->grad()->to_vector()) EXPECT_EQ(v, one ? 1.f : 5.f);
  }
}

TEST(EyeLike, Diagonals) {
  for (int64_t k : {-2, 0, 1, 5}) {
    Reference ref = [k](const RefInputs& in, const nn::Attrs&) {
      RefArray y{in[0].shape, {}};
      for (int64_t i = 0; i < in[0].shape[0]; ++i)
        for (int64_t j = 0; j < in[0].shape[1]; ++j) y.data.push_back(j - i == k ? 1.0 : 0.0);
      return std::vector<RefArray>{y};
    };
    std::mt19937 rng(3);
    run_op_test({"EyeLike", {{"k", k}}, {random_input({3, 4}, rng)}, ref});
  }
}

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
