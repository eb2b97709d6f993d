// RNN: tanh and relu, 1 and 2 layers, bidirectional, with and without bias,
// inference mode, bad shapes.
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "recurrent_reference.hpp"

using rnn_ref::Cell;
using rnn_ref::check;

TEST(RNN, OneLayerTanh) {
  check("RNN", {Cell::kTanh, 1, false, true}, 3, 2, 3, 2, 1);
  check("RNN", {Cell::kTanh, 1, false, false}, 3, 2, 3, 2, 2);
}

TEST(RNN, TwoLayersBidirectional) {
  check("RNN", {Cell::kTanh, 2, false, true}, 3, 2, 3, 2, 3);
  check("RNN", {Cell::kTanh, 1, true, true}, 3, 2, 3, 2, 4);
  check("RNN", {Cell::kTanh, 2, true, true}, 3, 2, 3, 2, 5);
  check("RNN", {Cell::kTanh, 2, true, false}, 3, 2, 3, 2, 6);
}

TEST(RNN, Relu) {
  check("RNN", {Cell::kRelu, 1, false, true}, 3, 2, 3, 2, 7);
  check("RNN", {Cell::kRelu, 2, true, true}, 3, 2, 3, 2, 8);
}

TEST(RNN, InferenceIsForwardOnly) {
  check("RNN", {Cell::kTanh, 2, true, true}, 3, 2, 3, 2, 9,
        nn::Attrs{{"training", false}, {"dropout", 0.5}});  // dropout is off in inference
  auto f = nn::OpRegistry::instance().create("RNN", {{"training", false}}, nn::cpu_context());
  EXPECT_FALSE(f->has_backward());
}

TEST(RNN, RejectsMissingWeightForTwoLayers) {
  auto f = nn::OpRegistry::instance().create("RNN", {{"num_layers", int64_t(2)}}, nn::cpu_context());
  auto x = nn::Variable::create({3, 2, 3}), h = nn::Variable::create({2, 1, 2, 2});
  auto w0 = nn::Variable::create({1, 2, 5}), y = nn::Variable::create(), hn = nn::Variable::create();
  EXPECT_THROW(f->setup({x.get(), h.get(), w0.get()}, {y.get(), hn.get()}), nn::Error);
}
