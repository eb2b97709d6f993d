// Symbolic sizes of the ONNX importer (symbolic_size.hpp): folding, canonical text, the zero implication If
// relies on, and the symbols folded through nnabla functions.
#include <gtest/gtest.h>

#include "formats/onnx/import/symbolic_size.hpp"

using namespace nn::formats::onnx;
using K = SymExpr::Kind;

TEST(SymbolicSize, FoldsConstantsAndFlattens) {
  const Sym a = sym_atom(0), b = sym_atom(1);
  EXPECT_EQ(sym_text(sym_op(K::kAdd, {sym_const(2), sym_const(3)})), "5");
  EXPECT_EQ(sym_text(sym_op(K::kMul, {a, sym_const(1)})), "#0");
  EXPECT_EQ(sym_text(sym_op(K::kMul, {a, sym_const(0)})), "0");
  EXPECT_EQ(sym_text(sym_op(K::kMin, {sym_const(300), a, sym_const(200)})), "min(#0, 200)");
  EXPECT_EQ(sym_text(sym_op(K::kAdd, {sym_op(K::kAdd, {a, b}), sym_const(4)})), "add(#0, #1, 4)");
  EXPECT_TRUE(sym_equal(sym_op(K::kAdd, {a, b}), sym_op(K::kAdd, {b, a})));
  EXPECT_EQ(sym_text(sym_op(K::kEq, {a, a})), "1");
  EXPECT_EQ(sym_op(K::kAdd, {a, sym_unknown()})->kind, K::kUnknown);
}

TEST(SymbolicSize, ZeroWheneverZero) {
  // Atoms 0 and 1: counts; atom 2 is at most 4 * (min(300, #0) + min(300, #1)) (NMS over their boxes).
  const Sym n0 = sym_atom(0), n1 = sym_atom(1);
  const Sym total =
      sym_op(K::kAdd, {sym_op(K::kMin, {sym_const(300), n0}), sym_op(K::kMin, {sym_const(300), n1})});
  AtomBounds bounds{nullptr, nullptr, sym_op(K::kMul, {total, sym_const(4)})};
  const Sym picked = sym_atom(2);
  const Sym elements = sym_op(K::kMul, {total, sym_const(4)});
  EXPECT_TRUE(zero_whenever_zero(elements, picked, bounds));
  EXPECT_TRUE(zero_whenever_zero(elements, sym_op(K::kMin, {sym_const(300), picked}), bounds));
  EXPECT_FALSE(zero_whenever_zero(n0, picked, bounds));  // #1 may still hold boxes
  EXPECT_FALSE(zero_whenever_zero(elements, sym_op(K::kAdd, {picked, sym_const(1)}), bounds));
  EXPECT_FALSE(zero_whenever_zero(sym_op(K::kMul, {n0, n1}), n0, bounds));  // either may be the 0
  AtomBounds unbounded{nullptr, nullptr, nullptr};
  EXPECT_FALSE(zero_whenever_zero(elements, picked, unbounded));
}

TEST(SymbolicSize, FoldsThroughFunctions) {
  const Sym n = sym_atom(0);
  // Concatenate([3], [n]) by tracing coded positions, then Min over it, then EqualScalar 0.
  SymFold concat{"Concatenate", 0, {{1}, {1}}, {{3}, {0}}, {{}, {n}}, {2}};
  const SymValues pair = fold_symbols(concat, [](const std::vector<std::vector<float>>& in) {
    return std::vector<float>{in[0][0], in[1][0]};
  });
  ASSERT_EQ(pair.size(), 2u);
  EXPECT_EQ(sym_text(pair[0]), "3");
  EXPECT_EQ(sym_text(pair[1]), "#0");
  SymFold min{"Min", 0, {{2}}, {{3, 0}}, {pair}, {}};
  const SymValues k = fold_symbols(min, nullptr);
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(sym_text(k[0]), "min(#0, 3)");
  SymFold eq{"EqualScalar", 0.0, {{}}, {{0}}, {k}, {}};
  EXPECT_EQ(sym_text(fold_symbols(eq, nullptr)[0]), "eq(min(#0, 3), 0)");
  // A function the importer cannot follow gives unknown values.
  SymFold sub{"Sub2", 0, {{}, {}}, {{0}, {1}}, {{n}, {}}, {}};
  EXPECT_EQ(fold_symbols(sub, nullptr)[0]->kind, K::kUnknown);
}
