// Graph semantics as nnabla: rank-order forward, leaf grads accumulate across backward calls,
// need_grad stops backward, clear_buffer frees intermediates, unlinked/rewire_on, nn::grad of any order.
#include <gtest/gtest.h>

#include <cmath>

#include "nn/graph/functions.hpp"
#include "nn/graph/grad.hpp"
#include "nn/graph/variable.hpp"

using namespace nn;

namespace {
VariablePtr filled(Shape s, float v, bool need_grad) {
  auto x = Variable::create(s, need_grad);
  x->data()->fill(v);
  return x;
}
}  // namespace

TEST(Graph, ForwardAndBackwardAccumulateIntoLeaves) {
  auto x = filled({3}, 2.f, true);
  auto y = F::mul2(F::sin(x), x);  // y = x sin x
  y->forward();
  EXPECT_NEAR(y->data()->to_vector()[0], 2 * std::sin(2.0), 1e-6);
  y->backward();
  double dydx = std::sin(2.0) + 2 * std::cos(2.0);
  EXPECT_NEAR(x->grad()->to_vector()[1], dydx, 1e-5);
  y->backward();  // twice: doubled, as nnabla
  EXPECT_NEAR(x->grad()->to_vector()[1], 2 * dydx, 1e-5);
}

TEST(Graph, NeedGradFalseStopsBackward) {
  auto x = filled({2}, 1.f, false);
  auto w = filled({2}, 3.f, true);
  auto y = F::mul2(x, w);
  y->forward();
  y->backward();
  EXPECT_FALSE(x->has_grad() && x->grad()->allocated());
  EXPECT_NEAR(w->grad()->to_vector()[0], 1.0, 1e-6);
}

TEST(Graph, IntermediateGradIsOverwrittenPerPass) {
  auto x = filled({1}, 1.5f, true);
  auto h = F::mul_scalar(x, 2.0);
  auto y = F::add2(h, h);  // two consumers of h in one pass
  y->forward();
  y->backward();
  EXPECT_NEAR(x->grad()->to_vector()[0], 4.0, 1e-6);
  y->backward();
  EXPECT_NEAR(x->grad()->to_vector()[0], 8.0, 1e-6);
}

TEST(Graph, ClearBufferFreesIntermediates) {
  auto x = filled({256, 256}, 0.5f, false);
  VariablePtr h = x;
  std::vector<VariablePtr> mids;
  for (int i = 0; i < 10; ++i) {
    h = F::mul_scalar(h, 1.0);
    mids.push_back(h);
  }
  h->forward(/*clear_buffer=*/true);
  for (size_t i = 0; i + 1 < mids.size(); ++i) EXPECT_FALSE(mids[i]->data()->allocated()) << i;
  EXPECT_NEAR(h->data()->to_vector()[7], 0.5, 1e-7);
}

TEST(Graph, ElementwiseForwardTakesTheArrayOfAnInputNothingElseReads) {
  auto x = filled({2, 3}, 0.5f, false);
  auto s = filled({1, 3}, 2.f, false);  // broadcast over the first axis: never taken
  auto a = F::mul_scalar(x, 2.0);       // x is a leaf: not taken
  auto b = F::sin(a);                   // over a's array
  auto c = F::mul2(b, s);               // over it again
  auto y = F::add_scalar(c, 1.0);       // the output keeps its own
  const NdArray* a_array = a->data().get();
  y->forward(/*clear_buffer=*/true);
  EXPECT_EQ(c->data().get(), a_array);
  EXPECT_NE(a->data().get(), a_array);
  EXPECT_NE(y->data().get(), a_array);
  for (float v : y->data()->to_vector()) EXPECT_NEAR(v, 2 * std::sin(1.0) + 1, 1e-6);
  for (float v : x->data()->to_vector()) EXPECT_EQ(v, 0.5f);
  for (float v : s->data()->to_vector()) EXPECT_EQ(v, 2.f);
  y->forward(true);  // again, on the arrays the first pass left
  for (float v : y->data()->to_vector()) EXPECT_NEAR(v, 2 * std::sin(1.0) + 1, 1e-6);
}

TEST(Graph, ElementwiseForwardNeverTakesAnArraySomethingElseHolds) {
  auto x = filled({4}, 0.25f, false);
  auto a = F::mul_scalar(x, 4.0);
  auto b = F::sin(a);
  auto y = F::mul_scalar(b, 1.0);
  const NdArrayPtr held = a->data();  // as another variable or a caller would hold it
  y->forward(true);
  EXPECT_EQ(a->data(), held);
  EXPECT_NE(b->data(), held);
  for (float v : y->data()->to_vector()) EXPECT_NEAR(v, std::sin(1.0), 1e-6);
}

TEST(Graph, ElementwiseForwardKeepsAnInputAnotherFunctionReadsLater) {
  auto x = filled({4}, 0.25f, false);
  auto a = F::mul_scalar(x, 4.0);
  const NdArray* a_array = a->data().get();
  auto b = F::sin(a);      // a is read again below: b gets its own array
  auto c = F::add2(b, a);  // may take b's
  auto y = F::mul_scalar(c, 1.0);
  y->forward(true);
  EXPECT_NE(b->data().get(), a_array);
  for (float v : y->data()->to_vector()) EXPECT_NEAR(v, std::sin(1.0) + 1, 1e-6);
  y->forward(false);  // without clear_buffer nothing is taken
  EXPECT_EQ(a->data().get(), a_array);
  for (float v : y->data()->to_vector()) EXPECT_NEAR(v, std::sin(1.0) + 1, 1e-6);
}

TEST(Graph, ElementwiseForwardNeverTakesAnInputItReadsTwice) {
  auto x = filled({4}, 0.5f, false);
  auto a = F::mul_scalar(x, 2.0);
  const NdArray* a_array = a->data().get();
  auto y = F::mul_scalar(F::mul2(a, a), 1.0);  // a is its only reader's two inputs: never overwritten mid-way
  y->forward(true);
  for (float v : y->data()->to_vector()) EXPECT_NEAR(v, 1.0, 1e-6);
  EXPECT_EQ(a->data().get(), a_array);
  EXPECT_FALSE(a->data()->allocated());  // freed once its reader ran
}

TEST(Graph, ClearBufferKeepsAnOutputOtherFunctionsRead) {
  auto x = filled({4}, 0.5f, false);
  auto h = F::mul_scalar(x, 2.0);
  auto y = F::sin(h);  // elementwise, h's last reader
  forward_all({h, y}, /*clear_buffer=*/true);
  for (float v : h->data()->to_vector()) EXPECT_NEAR(v, 1.0, 1e-6);
  for (float v : y->data()->to_vector()) EXPECT_NEAR(v, std::sin(1.0), 1e-6);
  EXPECT_NE(y->data(), h->data());
}

TEST(Graph, PersistentSurvivesClearBuffer) {
  auto x = filled({4}, 1.f, false);
  auto a = F::mul_scalar(x, 2.0);
  a->set_persistent(true);
  auto b = F::mul_scalar(a, 3.0);
  b->forward(true);
  EXPECT_TRUE(a->data()->allocated());
}

TEST(Graph, UnlinkedCutsTheGraph) {
  auto x = filled({2}, 1.f, true);
  auto h = F::mul_scalar(x, 2.0);
  auto u = h->unlinked();
  auto y = F::mul_scalar(u, 3.0);
  h->forward();
  y->forward();
  y->backward();
  EXPECT_FALSE(x->grad()->allocated());
  EXPECT_EQ(u->parent(), nullptr);
}

TEST(Graph, RewireOn) {
  auto x = Variable::create({2}, true);
  auto y = F::mul_scalar(x, 3.0);
  auto z = filled({2}, 2.f, true);
  auto x2 = F::mul_scalar(z, 5.0);  // x takes x2's place: y = 3 * (5 z)
  x->rewire_on(x2);
  y->forward();
  EXPECT_NEAR(y->data()->to_vector()[0], 30.0, 1e-6);
  y->backward();
  EXPECT_NEAR(z->grad()->to_vector()[0], 15.0, 1e-6);
}

TEST(Graph, HooksAndVisitInForwardOrder) {
  auto x = filled({2}, 1.f, false);
  auto y = F::sin(F::mul_scalar(x, 2.0));
  std::vector<std::string> seen;
  y->forward(false, false, [&](const FunctionNode& f) { seen.push_back(f.function().type()); });
  EXPECT_EQ(seen, (std::vector<std::string>{"MulScalar", "Sin"}));
  std::vector<std::string> visited;
  y->visit_functions([&](FunctionNode& f) { visited.push_back(f.function().type()); });
  EXPECT_EQ(visited, seen);
}

TEST(Graph, ForwardAllRunsSharedFunctionsOnce) {
  auto x = filled({2}, 1.f, false);
  auto h = F::mul_scalar(x, 2.0);
  auto a = F::sin(h), b = F::cos(h);
  int calls = 0;
  forward_all({a, b}, false, false, [&](const FunctionNode&) { ++calls; });
  EXPECT_EQ(calls, 3);
  calls = 0;  // a later walk of the same nodes sees each of them again
  forward_all({b, a, b}, false, false, [&](const FunctionNode&) { ++calls; });
  EXPECT_EQ(calls, 3);
}

TEST(Grad, TenthDerivativeOfSinIsMinusSin) {
  auto x = filled({5}, 0.f, true);
  float* p = x->data()->cast<float>();
  for (int i = 0; i < 5; ++i) p[i] = -2.f + i;
  VariablePtr d = F::sin(x);
  for (int k = 0; k < 10; ++k) d = grad({d}, {x})[0];
  d->forward();
  auto v = d->data()->to_vector();
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(v[i], -std::sin(-2.0 + i), 1e-5);
}

TEST(Grad, GradientPenaltyStyleDoubleBackward) {
  // loss = sum((d/dx (x*w))^2) = sum(w^2) per element -> d loss / dw = 2 w * n.
  auto x = filled({3}, 0.7f, true);
  auto w = filled({3}, 1.5f, true);
  auto y = F::mul2(x, w);
  auto gx = grad({y}, {x})[0];
  auto loss = F::sum(F::mul2(gx, gx), {0});
  loss->forward();
  EXPECT_NEAR(loss->data()->to_vector()[0], 3 * 2.25, 1e-5);
  loss->backward();
  EXPECT_NEAR(w->grad()->to_vector()[0], 2 * 1.5, 1e-5);
}
