// Where, Trilu, MatrixDiag, MatrixDiagPart, Meshgrid, Arange, Linspace, Sort, Shift against double
// references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "array_ref.hpp"
#include "op_tester.hpp"

using namespace nn::test;
using Ints = std::vector<int64_t>;

TEST(Where, PrefixConditionBroadcasts) {
  auto ref = [](const RefInputs& in, const nn::Attrs&) {
    const int64_t inner = ref_size(in[1].shape) / ref_size(in[0].shape);
    RefArray y = in[1];
    for (size_t i = 0; i < y.data.size(); ++i)
      y.data[i] = in[0].data[i / inner] != 0 ? in[1].data[i] : in[2].data[i];
    return std::vector<RefArray>{y};
  };
  std::mt19937 rng(1);
  RefArray cond{{2, 3}, {1, 0, 0, 1, 1, 0}};
  OpTestCase tc{"Where", {}, {cond, random_input({2, 3, 2}, rng), random_input({2, 3, 2}, rng)}, ref};
  tc.check_grad = {false, true, true};  // condition is piecewise constant
  run_op_test(tc);
  tc.inputs[0] = RefArray{{2, 3, 2}, {1, 0, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1}};
  run_op_test(tc);
}

TEST(Trilu, UpperLowerWithOffset) {
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    const int64_t k = a.get_int("k", 0);
    const bool upper = a.get_bool("upper", true);
    const auto& s = in[0].shape;
    return std::vector<RefArray>{make_ref(s, [&](const std::vector<int64_t>& i) {
      const int64_t d = i[s.size() - 1] - i[s.size() - 2];
      return (upper ? d >= k : d <= k) ? in[0].data[size_t(ravel(i, s))] : 0.0;
    })};
  };
  std::mt19937 rng(2);
  for (int64_t k : {-1, 0, 2})
    for (bool upper : {true, false})
      run_op_test({"Trilu", {{"k", k}, {"upper", upper}}, {random_input({2, 3, 4}, rng)}, ref});
}

TEST(MatrixDiag, BuildsDiagonalMatrices) {
  auto ref = [](const RefInputs& in, const nn::Attrs&) {
    nn::Shape ys = in[0].shape;
    ys.push_back(ys.back());
    return std::vector<RefArray>{make_ref(ys, [&](const std::vector<int64_t>& i) {
      const size_t n = i.size();
      return i[n - 1] == i[n - 2]
                 ? in[0].data[size_t(ravel(std::vector<int64_t>(i.begin(), i.end() - 1), in[0].shape))]
                 : 0.0;
    })};
  };
  std::mt19937 rng(3);
  run_op_test({"MatrixDiag", {}, {random_input({2, 3}, rng)}, ref});
  run_op_test({"MatrixDiag", {}, {random_input({4}, rng)}, ref});
}

TEST(MatrixDiagPart, TakesTheDiagonal) {
  auto ref = [](const RefInputs& in, const nn::Attrs&) {
    nn::Shape ys(in[0].shape.begin(), in[0].shape.end() - 1);
    return std::vector<RefArray>{make_ref(ys, [&](std::vector<int64_t> i) {
      i.push_back(i.back());
      return in[0].data[size_t(ravel(i, in[0].shape))];
    })};
  };
  std::mt19937 rng(4);
  run_op_test({"MatrixDiagPart", {}, {random_input({2, 3, 3}, rng)}, ref});
  EXPECT_THROW(run_op_test({"MatrixDiagPart",
                            {},
                            {random_input({2, 3}, rng)},
                            [](const RefInputs& in, const nn::Attrs&) { return std::vector<RefArray>{in[0]}; }}),
               nn::Error);
}

TEST(Meshgrid, XyAndIjIndexing) {
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    const bool ij = a.get_bool("ij_indexing", false);
    nn::Shape s;
    for (const auto& x : in) s.push_back(x.shape[0]);
    std::vector<int> axis(in.size());
    std::iota(axis.begin(), axis.end(), 0);
    if (!ij && in.size() >= 2) {
      std::swap(s[0], s[1]);
      std::swap(axis[0], axis[1]);
    }
    std::vector<RefArray> outs;
    for (size_t k = 0; k < in.size(); ++k)
      outs.push_back(make_ref(s, [&](const std::vector<int64_t>& i) { return in[k].data[size_t(i[axis[k]])]; }));
    return outs;
  };
  std::mt19937 rng(5);
  run_op_test({"Meshgrid", {}, {random_input({2}, rng), random_input({3}, rng), random_input({2}, rng)}, ref});
  run_op_test({"Meshgrid", {{"ij_indexing", true}}, {random_input({2}, rng), random_input({3}, rng)}, ref});
}

TEST(Arange, ValuesAndLength) {
  auto ref = [](const RefInputs&, const nn::Attrs& a) {
    const double start = a.get_float("start", 0), stop = a.get_float("stop", 0), step = a.get_float("step", 1);
    RefArray y{{0}, {}};
    for (double v = start; step > 0 ? v < stop - 1e-9 : v > stop + 1e-9; v += step) y.data.push_back(v);
    y.shape = {int64_t(y.data.size())};
    return std::vector<RefArray>{y};
  };
  for (auto [start, stop, step] : std::vector<std::tuple<double, double, double>>{
           {0, 5, 1}, {1, 2, 0.25}, {3, -1, -1.5}, {2, 2, 1}, {0, 1, 0.3}}) {
    OpTestCase tc{"Arange", {{"start", start}, {"stop", stop}, {"step", step}}, {}, ref};
    tc.check_backward = false;  // no inputs
    run_op_test(tc);
  }
}

TEST(Linspace, EndpointsIncluded) {
  auto ref = [](const RefInputs&, const nn::Attrs& a) {
    const double start = a.get_float("start", 0), stop = a.get_float("stop", 0);
    const int64_t num = a.get_int("num", 0);
    RefArray y{{num}, {}};
    for (int64_t i = 0; i < num; ++i)
      y.data.push_back(num == 1 ? start : start + (stop - start) * i / double(num - 1));
    return std::vector<RefArray>{y};
  };
  for (auto [start, stop, num] :
       std::vector<std::tuple<double, double, int64_t>>{{0, 1, 5}, {-2, 3, 7}, {4, 4, 1}, {1, 0, 0}, {1, -1, 2}}) {
    OpTestCase tc{"Linspace", {{"start", start}, {"stop", stop}, {"num", num}}, {}, ref};
    tc.check_backward = false;  // no inputs
    run_op_test(tc);
  }
}

namespace {

// Sorted values and/or source indices along axis, as the Sort arguments ask.
std::vector<RefArray> sort_reference(const RefInputs& in, const nn::Attrs& a) {
  const auto& s = in[0].shape;
  int64_t axis = a.get_int("axis", -1);
  if (axis < 0) axis += int64_t(s.size());
  const bool reverse = a.get_bool("reverse", false);
  RefArray values{s, in[0].data}, index{s, in[0].data};
  for (int64_t i = 0; i < ref_size(s); ++i) {
    auto idx = unravel(i, s);
    if (idx[axis] != 0) continue;
    std::vector<std::pair<double, int64_t>> line;
    for (int64_t t = 0; t < s[axis]; ++t) {
      idx[axis] = t;
      line.push_back({in[0].data[size_t(ravel(idx, s))], t});
    }
    std::stable_sort(line.begin(), line.end(),
                     [&](auto& p, auto& q) { return reverse ? p.first > q.first : p.first < q.first; });
    for (int64_t t = 0; t < s[axis]; ++t) {
      idx[axis] = t;
      values.data[size_t(ravel(idx, s))] = line[t].first;
      index.data[size_t(ravel(idx, s))] = double(line[t].second);
    }
  }
  if (a.get_bool("only_index", false)) return {index};
  if (a.get_bool("with_index", false)) return {values, index};
  return {values};
}

}  // namespace

TEST(Sort, ValuesIndicesReverse) {
  std::mt19937 rng(6);
  run_op_test({"Sort", {}, {random_input({3, 5}, rng)}, sort_reference});
  run_op_test({"Sort", {{"axis", int64_t(0)}, {"reverse", true}}, {random_input({4, 3}, rng)}, sort_reference});
  OpTestCase with_index{"Sort", {{"with_index", true}}, {random_input({2, 4}, rng)}, sort_reference};
  with_index.skip_outputs_for_grad = 1;  // the index output carries no gradient
  run_op_test(with_index);
  OpTestCase only{
      "Sort", {{"only_index", true}, {"axis", int64_t(1)}}, {random_input({2, 4, 2}, rng)}, sort_reference};
  only.check_backward = false;  // indices only: nothing differentiable
  run_op_test(only);
}

TEST(Shift, NearestAndReflect) {
  auto ref = [](const RefInputs& in, const nn::Attrs& a) {
    const auto& s = in[0].shape;
    Ints shifts = a.get_ints("shifts", {});
    shifts.insert(shifts.begin(), s.size() - shifts.size(), 0);
    const bool reflect = a.get_string("border_mode", "nearest") == "reflect";
    return std::vector<RefArray>{make_ref(s, [&](std::vector<int64_t> i) {
      for (size_t d = 0; d < s.size(); ++d) {
        int64_t j = i[d] - shifts[d];
        const int64_t n = s[d];
        if (!reflect) {
          j = std::min(std::max<int64_t>(j, 0), n - 1);
        } else {
          while (j < 0 || j >= n) j = j < 0 ? -j - 1 : 2 * n - 1 - j;  // mirror, edge repeated
        }
        i[d] = j;
      }
      return in[0].data[size_t(ravel(i, s))];
    })};
  };
  std::mt19937 rng(7);
  run_op_test({"Shift", {{"shifts", Ints{1, -2}}}, {random_input({2, 3, 4}, rng)}, ref});
  run_op_test({"Shift",
               {{"shifts", Ints{2, 5}}, {"border_mode", std::string("reflect")}},
               {random_input({3, 4}, rng)},
               ref});
  run_op_test({"Shift", {}, {random_input({3, 4}, rng)}, ref});
}
