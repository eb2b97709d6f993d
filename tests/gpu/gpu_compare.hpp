// The GPU tests' view of the shared backend comparison (tests/support/backend_compare.hpp): a case runs on a
// CUDA context against cpu:float; NN_SKIP_WITHOUT_GPU skips a test when no CUDA device is present.
#pragma once
#include <gtest/gtest.h>

#include "backend_compare.hpp"
#include "nn/core/context.hpp"
#include "nn/ops/op_registry.hpp"

namespace nn::gpu_test {

// The backend comes through the same loader as nncli's (libnncli-cuda.so in the build tree).
#define NN_SKIP_WITHOUT_GPU()                                                                      \
  do {                                                                                             \
    if (const std::string why = ::nn::gpu_unavailable_reason(); !why.empty()) GTEST_SKIP() << why; \
  } while (0)

using GpuCase = test::BackendCase;

// A float case of random values small enough for one CUDA block (256 threads) repeats what the per-op tester
// (tests/ops) already compares for every float kernel; the GPU tests keep float cases past that size or with
// crafted values (ties, exact levels, extreme ranges), and the fp16 kernels' cases.
inline bool past_one_block(const GpuCase& c) {
  for (const Shape& s : c.shapes)
    if (shape_size(s) > 256) return true;
  return false;
}
inline bool crafted(const GpuCase& c) {
  for (const auto& v : c.values)
    if (!v.empty()) return true;
  return false;
}

// The fp16 kernel of a case: the cudnn:half context with tolerance `tol` (the reference stays cpu:float).
inline GpuCase as_half(GpuCase c, double tol = 1e-2) {
  c.context = "cudnn:half";
  c.rtol = c.atol = tol;
  return c;
}

// The case on the fp16 kernel, and on the float one when it is past one block or crafted.
inline void compare_both(const GpuCase& c, double half_tol = 1e-2) {
  if (past_one_block(c) || crafted(c)) {
    SCOPED_TRACE("float");
    compare_with_cpu(c);
  }
  SCOPED_TRACE("half");
  compare_with_cpu(as_half(c, half_tol));
}
using RunResult = test::Outcome;
using test::case_values;
using test::compare_with_cpu;
using test::expect_same;
using test::fill;
using test::random_values;
using test::run_on;
using test::RunOptions;

}  // namespace nn::gpu_test
