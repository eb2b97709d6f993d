// LSTM: gates (i, f, g, o), 1 and 2 layers, bidirectional, with and without
// bias, bad cell shape.
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "recurrent_reference.hpp"

using rnn_ref::Cell;
using rnn_ref::check;

TEST(LSTM, OneLayer) {
  check("LSTM", {Cell::kLstm, 1, false, true}, 3, 2, 3, 2, 11);
  check("LSTM", {Cell::kLstm, 1, false, false}, 3, 2, 3, 2, 12);
}

TEST(LSTM, TwoLayersBidirectional) {
  check("LSTM", {Cell::kLstm, 2, false, true}, 3, 2, 3, 2, 13);
  check("LSTM", {Cell::kLstm, 1, true, true}, 3, 2, 3, 2, 14);
  check("LSTM", {Cell::kLstm, 2, true, true}, 3, 2, 3, 2, 15);
  check("LSTM", {Cell::kLstm, 2, true, false}, 3, 2, 3, 2, 16);
}

TEST(LSTM, RejectsMismatchedCell) {
  auto f = nn::OpRegistry::instance().create("LSTM", {}, nn::cpu_context());
  auto x = nn::Variable::create({3, 2, 3}), h = nn::Variable::create({1, 1, 2, 2});
  auto c = nn::Variable::create({1, 1, 2, 3}), w0 = nn::Variable::create({1, 4, 2, 5});
  auto y = nn::Variable::create(), hn = nn::Variable::create(), cn = nn::Variable::create();
  EXPECT_THROW(f->setup({x.get(), h.get(), c.get(), w0.get()}, {y.get(), hn.get(), cn.get()}), nn::Error);
}
