// Einsum against explicit double loops written per equation (matmul, diagonal, total sum, batched,
// broadcast ellipsis with implicit output, three operands, permuted output, implicit transpose).
#include <gtest/gtest.h>

#include "op_tester.hpp"

using namespace nn::test;

namespace {

// Element of a C-order array by multi-index.
double at(const RefArray& a, std::initializer_list<int64_t> idx) {
  int64_t off = 0;
  size_t d = 0;
  for (int64_t i : idx) off = off * a.shape[d++] + i;
  return a.data[size_t(off)];
}

void check(const std::string& eq, std::vector<nn::Shape> shapes, std::function<RefArray(const RefInputs&)> ref,
           uint32_t seed) {
  SCOPED_TRACE(eq);
  std::mt19937 rng(seed);
  RefInputs inputs;
  for (const auto& s : shapes) inputs.push_back(random_input(s, rng));
  run_op_test({"Einsum", {{"equation", eq}}, inputs, [ref](const RefInputs& in, const nn::Attrs&) {
                 return std::vector<RefArray>{ref(in)};
               }});
}

}  // namespace

TEST(Einsum, MatmulDiagonalAndSums) {
  check(
      "ij,jk->ik", {{2, 3}, {3, 4}},
      [](const RefInputs& in) {
        RefArray y{{2, 4}, {}};
        for (int64_t i = 0; i < 2; ++i)
          for (int64_t k = 0; k < 4; ++k) {
            double s = 0;
            for (int64_t j = 0; j < 3; ++j) s += at(in[0], {i, j}) * at(in[1], {j, k});
            y.data.push_back(s);
          }
        return y;
      },
      1);
  check(
      "ii->i", {{3, 3}},
      [](const RefInputs& in) {
        RefArray y{{3}, {}};
        for (int64_t i = 0; i < 3; ++i) y.data.push_back(at(in[0], {i, i}));
        return y;
      },
      2);
  check(
      "ij->", {{2, 3}},
      [](const RefInputs& in) {
        double s = 0;
        for (double v : in[0].data) s += v;
        return RefArray{{}, {s}};
      },
      3);
  check(
      "i,i,i->", {{4}, {4}, {4}},
      [](const RefInputs& in) {
        double s = 0;
        for (int64_t i = 0; i < 4; ++i) s += in[0].data[size_t(i)] * in[1].data[size_t(i)] * in[2].data[size_t(i)];
        return RefArray{{}, {s}};
      },
      4);
}

TEST(Einsum, BatchedPermutedAndImplicit) {
  check(
      "bij,bjk->bik", {{2, 2, 3}, {2, 3, 2}},
      [](const RefInputs& in) {
        RefArray y{{2, 2, 2}, {}};
        for (int64_t b = 0; b < 2; ++b)
          for (int64_t i = 0; i < 2; ++i)
            for (int64_t k = 0; k < 2; ++k) {
              double s = 0;
              for (int64_t j = 0; j < 3; ++j) s += at(in[0], {b, i, j}) * at(in[1], {b, j, k});
              y.data.push_back(s);
            }
        return y;
      },
      5);
  check(
      "ij,kj->jki", {{2, 3}, {4, 3}},
      [](const RefInputs& in) {
        RefArray y{{3, 4, 2}, {}};
        for (int64_t j = 0; j < 3; ++j)
          for (int64_t k = 0; k < 4; ++k)
            for (int64_t i = 0; i < 2; ++i) y.data.push_back(at(in[0], {i, j}) * at(in[1], {k, j}));
        return y;
      },
      6);
  check(
      "ba", {{3, 2}},
      [](const RefInputs& in) {  // implicit output "ab": a transpose
        RefArray y{{2, 3}, {}};
        for (int64_t a = 0; a < 2; ++a)
          for (int64_t b = 0; b < 3; ++b) y.data.push_back(at(in[0], {b, a}));
        return y;
      },
      7);
  // Ellipsis dims (2, 1) and (1, 3) broadcast to (2, 3); implicit output "...ik".
  check(
      "...ij,...jk", {{2, 1, 2, 3}, {1, 3, 3, 2}},
      [](const RefInputs& in) {
        RefArray y{{2, 3, 2, 2}, {}};
        for (int64_t p = 0; p < 2; ++p)
          for (int64_t q = 0; q < 3; ++q)
            for (int64_t i = 0; i < 2; ++i)
              for (int64_t k = 0; k < 2; ++k) {
                double s = 0;
                for (int64_t j = 0; j < 3; ++j) s += at(in[0], {p, 0, i, j}) * at(in[1], {0, q, j, k});
                y.data.push_back(s);
              }
        return y;
      },
      8);
}

TEST(Einsum, RejectsMismatchedLabels) {
  std::mt19937 rng(9);
  auto none = [](const RefInputs&, const nn::Attrs&) { return std::vector<RefArray>{}; };
  EXPECT_ANY_THROW(run_op_test({"Einsum",
                                {{"equation", std::string("ij,jk->ik")}},
                                {random_input({2, 3}, rng), random_input({4, 2}, rng)},
                                none}));
  EXPECT_ANY_THROW(
      run_op_test({"Einsum", {{"equation", std::string("ij->ij")}}, {random_input({2, 3, 1}, rng)}, none}));
}
