// Concatenate, Split, Stack, Pad, OneHot and BatchMatmul against double-precision references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "array_ref.hpp"

using namespace nn::test;
using Ints = std::vector<int64_t>;
using nn::Shape;

TEST(Concatenate, MiddleAxisAndDefaultLastAxis) {
  std::mt19937 rng(1);
  auto ref = [](int axis) {
    return [axis](const RefInputs& in, const nn::Attrs&) {
      Shape ys = in[0].shape;
      ys[axis] = 0;
      for (const auto& a : in) ys[axis] += a.shape[axis];
      return std::vector<RefArray>{make_ref(ys, [&](Ints o) {
        size_t k = 0;
        while (o[axis] >= in[k].shape[axis]) o[axis] -= in[k++].shape[axis];
        return in[k].data[ravel(o, in[k].shape)];
      })};
    };
  };
  run_op_test({"Concatenate",
               {{"axis", int64_t(1)}},
               {random_input({2, 1, 3}, rng), random_input({2, 3, 3}, rng), random_input({2, 2, 3}, rng)},
               ref(1)});
  run_op_test({"Concatenate", {}, {random_input({2, 3}, rng), random_input({2, 2}, rng)}, ref(1)});
}

TEST(Split, OutputsPerIndex) {
  std::mt19937 rng(2);
  run_op_test(
      {"Split", {{"axis", int64_t(1)}}, {random_input({2, 3, 4}, rng)}, [](const RefInputs& in, const nn::Attrs&) {
         const auto& x = in[0];
         std::vector<RefArray> ys;
         for (int64_t k = 0; k < 3; ++k)
           ys.push_back(make_ref({2, 4}, [&](const Ints& o) { return x.data[ravel({o[0], k, o[1]}, x.shape)]; }));
         return ys;
       }});
}

TEST(Stack, NewAxis) {
  std::mt19937 rng(3);
  auto ref = [](int axis) {
    return [axis](const RefInputs& in, const nn::Attrs&) {
      Shape ys = in[0].shape;
      ys.insert(ys.begin() + axis, int64_t(in.size()));
      return std::vector<RefArray>{make_ref(ys, [&](Ints o) {
        const int64_t k = o[axis];
        o.erase(o.begin() + axis);
        return in[k].data[ravel(o, in[k].shape)];
      })};
    };
  };
  run_op_test({"Stack", {{"axis", int64_t(1)}}, {random_input({2, 3}, rng), random_input({2, 3}, rng)}, ref(1)});
  run_op_test({"Stack",
               {{"axis", int64_t(-1)}},
               {random_input({2, 3}, rng), random_input({2, 3}, rng), random_input({2, 3}, rng)},
               ref(2)});
}

// numpy-style source index of output index i along one axis for the three Pad modes (-1: constant).
static int64_t pad_source(int64_t i, int64_t before, int64_t len, const std::string& mode) {
  int64_t j = i - before;
  if (mode == "constant") return j >= 0 && j < len ? j : -1;
  if (mode == "repeat") return std::clamp<int64_t>(j, 0, len - 1);
  while (j < 0 || j >= len) j = j < 0 ? -j : 2 * (len - 1) - j;  // reflect, edges not repeated
  return j;
}

TEST(Pad, ConstantReflectRepeat) {
  for (std::string mode : {"constant", "reflect", "repeat"}) {
    SCOPED_TRACE(mode);
    std::mt19937 rng(4);
    // pad_width covers the last two axes of (2, 3, 4): (1, 2) rows, (3, 1) columns (reflect wraps twice on
    // cols).
    run_op_test({"Pad",
                 {{"pad_width", Ints{1, 2, 3, 5}}, {"mode", mode}, {"constant_value", 0.5}},
                 {random_input({2, 3, 4}, rng)},
                 [mode](const RefInputs& in, const nn::Attrs&) {
                   const auto& x = in[0];
                   return std::vector<RefArray>{make_ref({2, 6, 12}, [&](const Ints& o) {
                     int64_t r = pad_source(o[1], 1, 3, mode), c = pad_source(o[2], 3, 4, mode);
                     return r < 0 || c < 0 ? 0.5 : x.data[ravel({o[0], r, c}, x.shape)];
                   })};
                 }});
  }
}

TEST(OneHot, TwoDimensionalIndices) {
  RefArray x{{3, 2}, {0, 1, 2, 0, 1, 2}};
  run_op_test({"OneHot", {{"shape", Ints{3, 4}}}, {x}, [](const RefInputs& in, const nn::Attrs&) {
                 RefArray y{{3, 3, 4}, std::vector<double>(36, 0.0)};
                 for (int i = 0; i < 3; ++i)
                   y.data[i * 12 + int(in[0].data[2 * i]) * 4 + int(in[0].data[2 * i + 1])] = 1.0;
                 return std::vector<RefArray>{y};
               }});
}

TEST(BatchMatmul, AllTransposeCombinations) {
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      SCOPED_TRACE(std::to_string(ta) + std::to_string(tb));
      std::mt19937 rng(5);
      const int64_t m = 2, k = 3, n = 4;
      Shape as = ta ? Shape{2, 1, k, m} : Shape{2, 1, m, k};
      Shape bs = tb ? Shape{2, n, k} : Shape{2, k, n};
      run_op_test({"BatchMatmul",
                   {{"transpose_a", ta}, {"transpose_b", tb}},
                   {random_input(as, rng), random_input(bs, rng)},
                   [=](const RefInputs& in, const nn::Attrs&) {
                     const auto& a = in[0];
                     const auto& b = in[1];
                     return std::vector<RefArray>{make_ref({2, 1, m, n}, [&](const Ints& o) {
                       double s = 0;
                       for (int64_t q = 0; q < k; ++q) {
                         double av = a.data[ravel(ta ? Ints{o[0], 0, q, o[2]} : Ints{o[0], 0, o[2], q}, a.shape)];
                         double bv = b.data[ravel(tb ? Ints{o[0], o[3], q} : Ints{o[0], q, o[3]}, b.shape)];
                         s += av * bv;
                       }
                       return s;
                     })};
                   }});
    }
  }
}
