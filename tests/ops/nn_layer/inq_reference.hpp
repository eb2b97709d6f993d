// Double-precision reference of INQ's first-minibatch weight selection and
// power-of-two rounding.
#pragma once
#include <algorithm>
#include <cmath>
#include <numeric>

#include "op_tester.hpp"

namespace inq_ref {

// The weights the layer uses at minibatch 0 for indicator input `ind`
// (largest_abs selection).
inline std::vector<double> quantized_weights(const std::vector<double>& w_in, std::vector<double> ind,
                                             const nn::Attrs& a) {
  std::vector<double> w = w_in;
  const auto iters = a.get_ints("inq_iterations", {});
  const int64_t n = int64_t(w.size());
  if (!iters.empty() && std::find(iters.begin(), iters.end(), 0) != iters.end()) {
    if (iters.back() == 0) {
      std::fill(ind.begin(), ind.end(), 1.0);
    } else {
      std::vector<int64_t> order(static_cast<size_t>(n));
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(),
                [&](int64_t p, int64_t q) { return std::fabs(w[p]) > std::fabs(w[q]); });
      const int64_t learnable = std::count(ind.begin(), ind.end(), 0.0);
      int64_t fixed = 0;
      for (int64_t i = 0; i < n && fixed < learnable / 2; ++i)
        if (ind[size_t(order[size_t(i)])] == 0.0) ind[size_t(order[size_t(i)])] = 1.0, ++fixed;
    }
  }
  double max_abs = 0;
  for (double v : w) max_abs = std::max(max_abs, std::fabs(v));
  if (max_abs == 0) max_abs = 1;
  auto nearest_exp = [](double v) {
    const double b = std::log2(v);
    return int(std::floor(b)) + (b - std::floor(b) >= std::log2(1.5) ? 1 : 0);
  };
  const int n1 = nearest_exp(max_abs);
  const int n2 = n1 + 1 - int(std::pow(2, a.get_int("num_bits", 4) - 2));
  for (int64_t i = 0; i < n; ++i) {
    if (ind[size_t(i)] != 1.0) continue;
    const double m = std::fabs(w[size_t(i)]);
    if (m < std::pow(2.0, n2 - 1)) {
      w[size_t(i)] = 0;
    } else {
      const int e = std::min(std::max(nearest_exp(m), n2), n1);
      w[size_t(i)] = (w[size_t(i)] < 0 ? -1 : 1) * std::pow(2.0, e);
    }
  }
  return w;
}

}  // namespace inq_ref
