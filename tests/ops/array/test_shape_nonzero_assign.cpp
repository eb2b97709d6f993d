// Shape (start/end slicing of the dimensions), NonZero (coordinates) and Assign (dst <- src).
#include <gtest/gtest.h>

#include "../special/custom_grad_check.hpp"
#include "op_tester.hpp"

using namespace nn::test;

TEST(Shape, StartEnd) {
  std::mt19937 rng(10);
  auto x = random_input({2, 3, 4, 5}, rng);
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    const int64_t nd = int64_t(in[0].shape.size());
    int64_t s = a.get_int("start", 0), e = a.get_int("end", 0);
    if (s < 0) s += nd;
    if (e <= 0) e += nd;
    RefArray y{{e - s}, {}};
    for (int64_t i = s; i < e; ++i) y.data.push_back(double(in[0].shape[size_t(i)]));
    return std::vector<RefArray>{y};
  };
  run_op_test({"Shape", {}, {x}, ref});
  run_op_test({"Shape", {{"start", int64_t(1)}, {"end", int64_t(3)}}, {x}, ref});
  run_op_test({"Shape", {{"start", int64_t(-2)}}, {x}, ref});
  run_op_test({"Shape", {{"end", int64_t(-1)}}, {x}, ref});
}

TEST(NonZero, Coordinates) {
  RefArray x{{2, 3}, {0.0, 1.5, 0.0, -2.0, 0.0, 3.0}};
  auto ref = [](const RefInputs& in, const nn::Attrs&) {
    std::vector<double> rows, cols;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j)
        if (in[0].data[size_t(i * 3 + j)] != 0.0) rows.push_back(double(i)), cols.push_back(double(j));
    RefArray y{{2, int64_t(rows.size())}, rows};
    y.data.insert(y.data.end(), cols.begin(), cols.end());
    return std::vector<RefArray>{y};
  };
  run_op_test({"NonZero", {}, {x}, ref});
  RefArray v{{5}, {0.0, 0.0, 7.0, 0.0, 1.0}};
  auto ref1 = [](const RefInputs&, const nn::Attrs&) {
    return std::vector<RefArray>{RefArray{{1, 2}, {2.0, 4.0}}};
  };
  run_op_test({"NonZero", {}, {v}, ref1});
}

TEST(Assign, CopiesSrcIntoDst) {
  std::mt19937 rng(11);
  auto dst = random_input({2, 3}, rng), src = random_input({2, 3}, rng);
  OpTestCase tc{"Assign", {}, {dst, src}, [](const RefInputs& in, const nn::Attrs&) {
                  return std::vector<RefArray>{in[1]};
                }};
  tc.check_backward = false;  // upstream passes dy to dst, not src: checked below
  run_op_test(tc);
  std::vector<double> g{0.1, -0.2, 0.3, -0.4, 0.5, -0.6};
  auto o = run_direct("Assign", {}, {dst, src}, g, {false, false}, false, 0.f);
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(o.data[0][i], float(src.data[i])) << "dst not overwritten at " << i;
  check_custom_backward("Assign", {}, {dst, src}, g, {g, {}});
}
