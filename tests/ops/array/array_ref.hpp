// Index helpers for the double-precision references of the array-manipulation op tests.
#pragma once
#include <cstdint>
#include <vector>

#include "op_tester.hpp"

namespace nn::test {

// C-order multi-index of flat index i in shape s.
inline std::vector<int64_t> unravel(int64_t i, const Shape& s) {
  std::vector<int64_t> idx(s.size());
  for (int d = int(s.size()) - 1; d >= 0; --d) {
    idx[d] = s[d] ? i % s[d] : 0;
    i = s[d] ? i / s[d] : 0;
  }
  return idx;
}

// Flat index of multi-index idx in shape s.
inline int64_t ravel(const std::vector<int64_t>& idx, const Shape& s) {
  int64_t f = 0;
  for (size_t d = 0; d < s.size(); ++d) f = f * s[d] + idx[d];
  return f;
}

// An output of shape `s` whose element at multi-index o is value(o).
template <class F>
RefArray make_ref(const Shape& s, F&& value) {
  RefArray r{s, std::vector<double>(size_t(ref_size(s)))};
  for (int64_t i = 0; i < ref_size(s); ++i) r.data[i] = value(unravel(i, s));
  return r;
}

}  // namespace nn::test
