// Unique: values / slices, sorted or by first appearance, with indices, inverse and counts, against a
// quadratic double-precision reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "op_tester.hpp"

using namespace nn::test;

namespace {

struct UniqueArgs {
  bool flatten;
  int64_t axis;
  bool sorted, with_index, with_inverse, with_counts;
};

Reference unique_ref(const UniqueArgs& a) {
  return [=](const RefInputs& in, const nn::Attrs&) {
    const auto& s = in[0].shape;
    const int64_t ax = a.axis < 0 ? a.axis + int64_t(s.size()) : a.axis;
    int64_t rows = ref_size(s), outer = 1, inner = 1;
    if (!a.flatten) {
      rows = s[size_t(ax)];
      for (int64_t d = 0; d < ax; ++d) outer *= s[size_t(d)];
      for (size_t d = size_t(ax) + 1; d < s.size(); ++d) inner *= s[d];
    }
    auto slice = [&](int64_t r) {
      std::vector<double> v;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) v.push_back(in[0].data[size_t((o * rows + r) * inner + i)]);
      return v;
    };
    std::vector<int64_t> firsts;  // first occurrence of each distinct slice, in order of appearance
    for (int64_t r = 0; r < rows; ++r) {
      bool seen = false;
      for (int64_t f : firsts) seen |= slice(f) == slice(r);
      if (!seen) firsts.push_back(r);
    }
    if (a.sorted)
      std::stable_sort(firsts.begin(), firsts.end(), [&](int64_t p, int64_t q) { return slice(p) < slice(q); });
    const int64_t n = int64_t(firsts.size());
    nn::Shape ys = a.flatten ? nn::Shape{n} : s;
    if (!a.flatten) ys[size_t(ax)] = n;
    RefArray y{ys, std::vector<double>(size_t(ref_size(ys)))};
    for (int64_t u = 0; u < n; ++u) {
      auto v = slice(firsts[size_t(u)]);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) y.data[size_t((o * n + u) * inner + i)] = v[size_t(o * inner + i)];
    }
    std::vector<RefArray> outs{y};
    RefArray idx{{n}, {}}, inv{{rows}, {}}, cnt{{n}, {}};
    for (int64_t u = 0; u < n; ++u) {
      idx.data.push_back(double(firsts[size_t(u)]));
      double c = 0;
      for (int64_t r = 0; r < rows; ++r) c += slice(r) == slice(firsts[size_t(u)]);
      cnt.data.push_back(c);
    }
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t u = 0; u < n; ++u)
        if (slice(r) == slice(firsts[size_t(u)])) inv.data.push_back(double(u));
    if (a.with_index) outs.push_back(idx);
    if (a.with_inverse) outs.push_back(inv);
    if (a.with_counts) outs.push_back(cnt);
    return outs;
  };
}

// Small integers so that values and slices repeat.
RefArray repeating_input(const nn::Shape& shape, std::mt19937& rng) {
  RefArray x = random_labels(shape, rng, 3);
  for (auto& v : x.data) v -= 1;
  return x;
}

}  // namespace

TEST(Unique, ValuesAndSlicesWithExtraOutputs) {
  const UniqueArgs cases[] = {{true, 0, true, false, false, false}, {true, 0, false, true, true, true},
                              {true, 0, true, true, true, true},    {false, 0, true, true, true, true},
                              {false, 1, false, true, false, true}, {false, -1, true, false, true, false}};
  uint32_t seed = 1;
  for (const auto& a : cases) {
    std::mt19937 rng(seed++);
    nn::Attrs attrs{{"flatten", a.flatten},
                    {"sorted", a.sorted},
                    {"with_index", a.with_index},
                    {"with_inverse", a.with_inverse},
                    {"with_counts", a.with_counts}};
    if (!a.flatten) attrs.set("axis", a.axis);
    const nn::Shape shape = a.flatten ? nn::Shape{3, 5} : nn::Shape{6, 2, 2};
    RefArray x = repeating_input(shape, rng);
    if (!a.flatten && a.axis != 0) {
      x = random_labels({2, 6, 1}, rng, 2);  // slices along axis 1 of (2, 6, 1) repeat often
    }
    OpTestCase tc{"Unique", attrs, {x}, unique_ref(a)};
    tc.check_backward = false;  // forward-only, as upstream
    run_op_test(tc);
  }
}
