// Test references: numpy-style broadcasting of two reference arrays through an elementwise function.
#pragma once
#include <algorithm>

#include "op_tester.hpp"

namespace nn::test {

// y[i] = f(a[ia], b[ib]) over the broadcast shape; a bool result becomes 1.0 / 0.0.
template <class F>
RefArray broadcast_ref(const RefArray& a, const RefArray& b, F f) {
  const size_t nd = std::max(a.shape.size(), b.shape.size());
  Shape pa(nd, 1), pb(nd, 1), out(nd);
  std::copy(a.shape.begin(), a.shape.end(), pa.begin() + (nd - a.shape.size()));
  std::copy(b.shape.begin(), b.shape.end(), pb.begin() + (nd - b.shape.size()));
  for (size_t d = 0; d < nd; ++d) out[d] = std::max(pa[d], pb[d]);
  RefArray y{out, std::vector<double>(size_t(ref_size(out)))};
  for (int64_t i = 0; i < ref_size(out); ++i) {
    int64_t rem = i, ia = 0, ib = 0, sa = 1, sb = 1;
    for (int d = int(nd) - 1; d >= 0; --d) {
      const int64_t k = rem % out[d];
      rem /= out[d];
      ia += (pa[d] == 1 ? 0 : k) * sa;
      ib += (pb[d] == 1 ? 0 : k) * sb;
      sa *= pa[d];
      sb *= pb[d];
    }
    y.data[size_t(i)] = double(f(a.data[size_t(ia)], b.data[size_t(ib)]));
  }
  return y;
}

}  // namespace nn::test
