// SpectralNorm: power-iteration reference in double, gradient at convergence, in-place u update, output_u.
#include <gtest/gtest.h>

#include <cmath>

#include "../stochastic/run_forward.hpp"
#include "norm_ref.hpp"
#include "op_tester.hpp"

using namespace nn::test;

namespace {

// Returns w / sigma (and u when output_u) with M = w's `dim` axis as rows.
std::vector<RefArray> spectral_reference(const RefInputs& in, const nn::Attrs& a) {
  const auto& ws = in[0].shape;
  const int64_t dim = a.get_int("dim", 0), itr = a.get_int("itr", 1);
  const double eps = a.get_float("eps", 1e-12);
  const int64_t rows = ws[dim], cols = ref_size(ws) / rows;
  std::vector<std::vector<double>> m(static_cast<size_t>(rows), std::vector<double>(static_cast<size_t>(cols)));
  std::vector<int64_t> col_of(size_t(ref_size(ws)));
  std::vector<int64_t> next(size_t(rows), 0);
  for (int64_t i = 0; i < ref_size(ws); ++i) {  // C order visits columns of each row in order
    const int64_t r = norm_unravel(i, ws)[dim];
    col_of[i] = next[r]++;
    m[r][col_of[i]] = in[0].data[i];
  }
  std::vector<double> u = in[1].data, v(static_cast<size_t>(cols));
  auto normalize = [&](std::vector<double>& x) {
    double s = 0;
    for (double e : x) s += e * e;
    for (double& e : x) e /= std::sqrt(s + eps);
  };
  for (int64_t it = 0; it < itr; ++it) {
    for (int64_t c = 0; c < cols; ++c) {
      v[c] = 0;
      for (int64_t r = 0; r < rows; ++r) v[c] += m[r][c] * u[r];
    }
    normalize(v);
    for (int64_t r = 0; r < rows; ++r) {
      u[r] = 0;
      for (int64_t c = 0; c < cols; ++c) u[r] += m[r][c] * v[c];
    }
    normalize(u);
  }
  double sigma = 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) sigma += u[r] * m[r][c] * v[c];
  RefArray y = in[0];
  for (double& e : y.data) e /= sigma;
  if (a.get_bool("output_u", false)) return {y, RefArray{in[1].shape, u}};
  return {y};
}

}  // namespace

TEST(SpectralNorm, ForwardOneIteration) {
  std::mt19937 rng(1);
  for (int64_t dim : {0, 1, 2}) {
    const nn::Shape ws{3, 4, 2};
    OpTestCase tc{
        "SpectralNorm", {{"dim", dim}}, {random_input(ws, rng), random_input({ws[dim]}, rng)}, spectral_reference};
    tc.check_backward = false;  // one iteration is far from convergence; gradients are checked below
    run_op_test(tc);
  }
}

TEST(SpectralNorm, BackwardAtConvergence) {
  // Upstream holds the iterated u and v constant; at convergence that equals the true derivative.
  std::mt19937 rng(2);
  for (int64_t dim : {0, 1}) {
    OpTestCase tc{"SpectralNorm",
                  {{"dim", dim}, {"itr", int64_t(60)}},
                  {random_input({3, 4}, rng), random_input({dim == 0 ? 3 : 4}, rng)},
                  spectral_reference};
    tc.check_grad = {true, false};
    run_op_test(tc);
  }
}

TEST(SpectralNorm, UpdatesUUnlessTestAndOutputsU) {
  std::mt19937 rng(3);
  auto w = random_input({3, 4}, rng), u = random_input({3}, rng);
  const nn::Attrs attrs{{"itr", int64_t(2)}, {"output_u", true}};
  auto want = spectral_reference({w, u}, attrs);
  ForwardRunner runner("SpectralNorm", attrs, {w, u});
  auto r = runner.run();
  ASSERT_EQ(r.outputs.size(), 2u);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.outputs[1][i], want[1].data[i], 1e-5);
  // The second run starts from the updated u: the same as 4 iterations from the original.
  auto again = runner.run();
  auto four = spectral_reference({w, u}, nn::Attrs{{"itr", int64_t(4)}, {"output_u", true}});
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(again.outputs[1][i], four[1].data[i], 1e-5);
  // test=true leaves u alone: repeated runs agree.
  ForwardRunner frozen("SpectralNorm", {{"test", true}}, {w, u});
  EXPECT_EQ(frozen.run().outputs[0], frozen.run().outputs[0]);
}
