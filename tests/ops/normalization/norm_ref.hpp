// Double-precision reference for standardizing normalizations: groups given by a function of the
// multi-index, optional scale/shift looked up by broadcasting.
#pragma once
#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include "op_tester.hpp"

namespace nn::test {

inline std::vector<int64_t> norm_unravel(int64_t i, const Shape& s) {
  std::vector<int64_t> idx(s.size());
  for (int d = int(s.size()) - 1; d >= 0; --d) {
    idx[d] = i % s[d];
    i /= s[d];
  }
  return idx;
}

// The element of p (shape ps, same rank as idx, dims 1 or full) at broadcast multi-index idx.
inline double bcast_at(const RefArray& p, const std::vector<int64_t>& idx) {
  int64_t f = 0;
  for (size_t d = 0; d < idx.size(); ++d) f = f * p.shape[d] + (p.shape[d] == 1 ? 0 : idx[d]);
  return p.data[size_t(f)];
}

struct NormRefResult {
  RefArray y;
  std::map<int64_t, double> mean, var;  // by group key
};

// y = (x - mean_g) / sqrt(var_g + eps) * gamma + beta, g = group(multi-index); gamma/beta may be null.
inline NormRefResult standardize_ref(const RefArray& x,
                                     const std::function<int64_t(const std::vector<int64_t>&)>& group, double eps,
                                     const RefArray* beta, const RefArray* gamma) {
  NormRefResult r{{x.shape, x.data}, {}, {}};
  std::map<int64_t, double> count;
  const int64_t n = ref_size(x.shape);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t g = group(norm_unravel(i, x.shape));
    r.mean[g] += x.data[i];
    count[g] += 1;
  }
  for (auto& [g, m] : r.mean) m /= count[g];
  for (int64_t i = 0; i < n; ++i) {
    const int64_t g = group(norm_unravel(i, x.shape));
    r.var[g] += std::pow(x.data[i] - r.mean[g], 2) / count[g];
  }
  for (int64_t i = 0; i < n; ++i) {
    const auto idx = norm_unravel(i, x.shape);
    const int64_t g = group(idx);
    double v = (x.data[i] - r.mean[g]) / std::sqrt(r.var[g] + eps);
    if (gamma) v *= bcast_at(*gamma, idx);
    if (beta) v += bcast_at(*beta, idx);
    r.y.data[i] = v;
  }
  return r;
}

// Group key from the listed axes of a multi-index (row-major over those axes).
inline int64_t key_of(const std::vector<int64_t>& idx, const Shape& s, const std::vector<int>& axes) {
  int64_t k = 0;
  for (int a : axes) k = k * s[a] + idx[a];
  return k;
}

}  // namespace nn::test
