// The arguments of the array ops Concatenate, Split, Stack, Pad, OneHot and BatchMatmul, and the geometry of
// Pad and BatchMatmul, read once for the CPU kernels and the CUDA ones that mirror them. The strided-view ops'
// views are in strided.hpp.
#pragma once
#include <string>
#include <vector>

#include "nn/core/error.hpp"
#include "nn/core/shape.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::ops {

// Concatenate's axis over inputs of shape s (default: the last).
inline int concat_axis(const Attrs& a, const Shape& s) {
  return normalize_axis(a.get_int("axis", int64_t(s.size()) - 1), s.size(), "Concatenate: axis");
}
// Split's axis of x.
inline int split_axis(const Attrs& a, const Shape& xs) {
  return normalize_axis(a.get_int("axis"), xs.size(), "Split: axis");
}
// Stack's new axis in the output, for inputs of shape s0 (negative: counted from the output's end).
inline int64_t stack_axis(const Attrs& a, const Shape& s0) {
  int64_t axis = a.get_int("axis");
  if (axis < 0) axis += int64_t(s0.size()) + 1;
  NN_CHECK(axis >= 0 && axis <= int64_t(s0.size()))
      << "Stack: axis " << a.get_int("axis") << " is out of range for inputs " << to_string(s0);
  return axis;
}

// Pad: before/after pairs of the trailing axes, mode (constant, reflect, repeat) and the constant.
struct PadArgs {
  std::vector<int64_t> pad_width;
  std::string mode;
  float constant_value;
  explicit PadArgs(const Attrs& a)
      : pad_width(a.get_ints("pad_width", {})),
        mode(a.get_string("mode")),
        constant_value(float(a.get_float("constant_value"))) {}
};
// Pad's output shape of x and, per axis, the input index each output index reads (-1: the constant);
// the arguments are checked against x.
std::vector<std::vector<int64_t>> pad_source_tables(const PadArgs& args, const Shape& xs, Shape& ys);

// OneHot: the one-hot dimensions.
inline Shape one_hot_shape(const Attrs& a) { return a.get_ints("shape", {}); }

// BatchMatmul: y[s] = op(a[s]) op(b[s]) with op transposing when transpose_a / transpose_b; a's matrices are
// rows_a x cols_a (m x k after op), b's rows_b x cols_b (k x n), over `samples` leading-dims batches.
struct BatchMatmulPlan {
  bool ta = false, tb = false;
  int64_t rows_a = 0, cols_a = 0, rows_b = 0, cols_b = 0, m = 0, k = 0, n = 0, samples = 1;
  Shape y_shape;
};
// Reads transpose_a/transpose_b and checks a's and b's shapes against them.
BatchMatmulPlan plan_batch_matmul(const Attrs& attrs, const Shape& as, const Shape& bs);
// Threads among which BatchMatmul shares out its products whole, each thread running its products alone: more
// than 1 when each product runs on one thread (the small-product kernel, or too little work for a team:
// attention's per-head products) and their sum pays for more (threads_for_flops); 1: the products run in turn.
int product_sharing_threads(const BatchMatmulPlan& p);

}  // namespace nn::ops
