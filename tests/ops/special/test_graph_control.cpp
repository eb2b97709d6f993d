// Unlink and Sink (graph control) against double references and their gradient rules.
#include <gtest/gtest.h>

#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {
Reference identity_ref() {
  return [](const RefInputs& in, const nn::Attrs&) { return std::vector<RefArray>{in[0]}; };
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
