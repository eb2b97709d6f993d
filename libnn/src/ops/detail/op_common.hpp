// Helpers for op kernels: typed data/grad access, parallel loops, registration shorthand.
#pragma once
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "nn/core/error.hpp"
#include "nn/graph/functions.hpp"
#include "nn/graph/variable.hpp"
#include "nn/ops/op_registry.hpp"
#include "ops/detail/thread_scope.hpp"

namespace nn::ops {

// Loops above this many elements run on all threads. Below it (about 0.1 ms of one core's work) a split
// gains microseconds on an idle machine and can lose milliseconds on a busy one, waiting for a worker.
constexpr int64_t kParallelThreshold = 1 << 18;

inline const float* in_data(Variable* v) { return v->data()->get<float>(); }
inline float* out_data(Variable* v) { return v->data()->cast<float>(true); }
inline const float* out_grad(Variable* v) { return v->grad()->get<float>(); }
// The input grad buffer to write: keeps its content when accumulating, else write-only.
inline float* in_grad(Variable* v, bool accum) { return v->grad()->cast<float>(!accum); }
// As in_grad, but zero-filled first when not accumulating (for kernels that add into it).
inline float* in_grad_zeroed(Variable* v, bool accum) {
  if (!accum) v->grad()->zero();
  return v->grad()->cast<float>();
}

// Writes or accumulates v into g[i].
inline void store_grad(float* g, int64_t i, float v, bool accum) { g[i] = accum ? g[i] + v : v; }

template <class F>
inline void parallel_for(int64_t n, F&& f) {
  if (n >= kParallelThreshold) {
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) f(i);
  } else {
    for (int64_t i = 0; i < n; ++i) f(i);
  }
}

// Inference on a quiet machine whose convolutions run their team (team_awake_wanted, thread_scope.hpp) splits
// from this many elements: the workers are spinning, and each thread then reads the rows of a map that the
// convolution's team left in its own cache (squeezenet b1 1.63 -> 1.60 ms, EfficientNet b1 3.71 -> 3.69, their
// fastest runs 1.62 -> 1.57 and 3.55 -> 3.47; 8192 gained nothing more).
constexpr int64_t kQuietParallelThreshold = 1 << 15;

// Splits [0, n) into one contiguous range per OpenMP thread and calls range(begin, end, thread); a single
// range on the calling thread when `work` (elements touched; default n) is below kParallelThreshold (or
// kQuietParallelThreshold).
// Thread indices stay below parallel_range_count(work).
inline int parallel_range_count(int64_t work) {
  return work < (quiet_team_inference() ? kQuietParallelThreshold : kParallelThreshold) || omp_in_parallel()
             ? 1
             : omp_get_max_threads();
}
template <class Range>
inline void parallel_ranges(int64_t n, int64_t work, Range&& range) {
  if (parallel_range_count(work) == 1 || n < 2) {
    run_keeping_team_awake([&] { range(int64_t(0), n, 0); });
    return;
  }
#pragma omp parallel
  {
    const int64_t threads = omp_get_num_threads(), t = omp_get_thread_num();
    range(n * t / threads, n * (t + 1) / threads, int(t));
  }
}
template <class Range>
inline void parallel_ranges(int64_t n, Range&& range) {
  parallel_ranges(n, n, std::forward<Range>(range));
}

// Splits `images` images of `items` items each among threads in whole steps of `step` items (parallel_ranges over
// the steps, `work` elements touched) and calls piece(image, begin, end) for items [begin, end) of one image.
template <class Piece>
inline void parallel_image_pieces(int64_t images, int64_t items, int64_t step, int64_t work, Piece&& piece) {
  const int64_t steps = (items + step - 1) / step;
  if (steps == 0) return;
  parallel_ranges(images * steps, work, [&](int64_t begin, int64_t end, int) {
    for (int64_t i = begin / steps; i < images && i * steps < end; ++i)
      piece(i, std::max(begin - i * steps, int64_t(0)) * step, std::min((end - i * steps) * step, items));
  });
}

// dst[i] += src[i] over n floats (threaded above kParallelThreshold).
inline void add_into(float* dst, const float* src, int64_t n) {
  parallel_ranges(n, [dst, src](int64_t begin, int64_t end, int) {
#pragma omp simd
    for (int64_t i = begin; i < end; ++i) dst[i] += src[i];
  });
}

// Registers schema and CPU kernel of a Function subclass F.
template <class F>
void register_cpu(OpRegistry& r, OpSchema schema) {
  auto name = schema.name;
  r.add_schema(std::move(schema));
  r.add_kernel(name, "cpu", "float", make_factory<F>());
}

}  // namespace nn::ops
