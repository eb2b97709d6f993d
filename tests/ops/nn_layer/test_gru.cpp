// GRU: gates (r, z, n) with the separate recurrent bias of n, 1 and 2 layers,
// bidirectional, no bias.
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "recurrent_reference.hpp"

using rnn_ref::Cell;
using rnn_ref::check;

TEST(GRU, OneLayer) {
  check("GRU", {Cell::kGru, 1, false, true}, 3, 2, 3, 2, 21);
  check("GRU", {Cell::kGru, 1, false, false}, 3, 2, 3, 2, 22);
}

TEST(GRU, TwoLayersBidirectional) {
  check("GRU", {Cell::kGru, 2, false, true}, 3, 2, 3, 2, 23);
  check("GRU", {Cell::kGru, 1, true, true}, 3, 2, 3, 2, 24);
  check("GRU", {Cell::kGru, 2, true, true}, 3, 2, 3, 2, 25);
  check("GRU", {Cell::kGru, 2, true, false}, 3, 2, 3, 2, 26);
}

TEST(GRU, RejectsWeightWithOneLayer) {
  auto f = nn::OpRegistry::instance().create("GRU", {}, nn::cpu_context());
  auto x = nn::Variable::create({3, 2, 3}), h = nn::Variable::create({1, 1, 2, 2});
  auto w0 = nn::Variable::create({1, 3, 2, 5}), w = nn::Variable::create({1, 1, 3, 2, 4});
  auto b = nn::Variable::create({1, 1, 4, 2});
  auto y = nn::Variable::create(), hn = nn::Variable::create();
  EXPECT_THROW(f->setup({x.get(), h.get(), w0.get(), w.get(), b.get()}, {y.get(), hn.get()}), nn::Error);
}
