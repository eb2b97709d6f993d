// Affine: base_axis flattening, several output dims, with and without bias.
#include <gtest/gtest.h>

#include "conv_reference.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"

using namespace nn::test;
using V = std::vector<int64_t>;

namespace {
Reference affine_ref(int64_t base_axis) {
  return [base_axis](const RefInputs& in, const nn::Attrs&) {
    return std::vector<RefArray>{conv_ref::affine(in[0], in[1], in.size() > 2 ? &in[2] : nullptr, base_axis)};
  };
}
}  // namespace

TEST(Affine, WithBias) {
  std::mt19937 rng(1);
  auto x = random_input({3, 5}, rng), w = random_input({5, 4}, rng), b = random_input({4}, rng);
  run_op_test({"Affine", {}, {x, w, b}, affine_ref(1)});
}

TEST(Affine, NoBiasBaseAxisFlattening) {
  std::mt19937 rng(2);
  // x (2, 3, 2, 2) at base_axis 1 is (2, 12); W has two output dims.
  auto x = random_input({2, 3, 2, 2}, rng), w = random_input({12, 2, 3}, rng);
  run_op_test({"Affine", {}, {x, w}, affine_ref(1)});
  // base_axis 2: rows are the first two dims, features the last two.
  auto w2 = random_input({4, 3}, rng), b2 = random_input({3}, rng);
  run_op_test({"Affine", {{"base_axis", int64_t(2)}}, {x, w2, b2}, affine_ref(2)});
}

TEST(Affine, MultiDimBias) {
  std::mt19937 rng(3);
  auto x = random_input({2, 3}, rng), w = random_input({3, 2, 2}, rng), b = random_input({2, 2}, rng);
  run_op_test({"Affine", {}, {x, w, b}, affine_ref(1)});
}

TEST(Affine, ShapeMismatchThrows) {
  auto& reg = nn::OpRegistry::instance();
  auto f = reg.create("Affine", {}, nn::cpu_context());
  auto x = nn::Variable::create({2, 3}), w = nn::Variable::create({4, 5}), y = nn::Variable::create();
  EXPECT_THROW(f->setup({x.get(), w.get()}, {y.get()}), nn::Error);
}
