// Reduction planning and the shared sum / broadcast-back kernels.
#include "ops/detail/reduce.hpp"

#include <algorithm>

#include "nn/core/error.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {

namespace {
// Offsets of every element of the sub-space spanned by `axes` (in order), with the given strides.
std::vector<int64_t> offsets_over(const Shape& shape, const Shape& strides, const std::vector<int>& axes) {
  std::vector<int64_t> offs{0};
  for (int a : axes) {
    std::vector<int64_t> next;
    next.reserve(offs.size() * shape[a]);
    for (int64_t o : offs)
      for (int64_t k = 0; k < shape[a]; ++k) next.push_back(o + k * strides[a]);
    offs.swap(next);
  }
  return offs;
}
}  // namespace

ReducePlan make_reduce_plan(const Shape& in, const std::vector<int64_t>& axes, bool has_axes, bool keep_dims) {
  ReducePlan p;
  p.in_shape = in;
  p.reduced.assign(in.size(), !has_axes);
  for (auto a : axes) p.reduced[normalize_axis(a, in.size(), "reduction axis")] = true;
  std::vector<int> kept, red;
  for (size_t i = 0; i < in.size(); ++i) {
    if (p.reduced[i]) {
      red.push_back(int(i));
      if (keep_dims) p.out_shape.push_back(1);
    } else {
      kept.push_back(int(i));
      p.out_shape.push_back(in[i]);
    }
  }
  auto strides = shape_strides(in);
  p.out_offsets = offsets_over(in, strides, kept);
  p.red_offsets = offsets_over(in, strides, red);
  p.out_size = int64_t(p.out_offsets.size());
  p.reduce_size = int64_t(p.red_offsets.size());
  // Blocked view: the reduced axes of size > 1 must be consecutive among the axes of size > 1.
  std::vector<size_t> reduced_positions;  // positions among the axes of size > 1
  size_t position = 0, first = 0, last = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == 1) continue;
    if (p.reduced[i]) {
      if (reduced_positions.empty()) first = i;
      last = i;
      reduced_positions.push_back(position);
    }
    ++position;
  }
  p.blocked = reduced_positions.empty() ||
              reduced_positions.back() - reduced_positions.front() + 1 == reduced_positions.size();
  if (reduced_positions.empty()) {
    p.outer = p.out_size;
    p.inner = 1;
  } else if (p.blocked) {
    p.outer = shape_size(in, 0, first);
    p.inner = shape_size(in, last + 1, in.size());
  }
  return p;
}

namespace {
// Sum of n contiguous floats, in double.
inline double sum_line(const float* x, int64_t n) {
  double s = 0.0;
#pragma omp simd reduction(+ : s)
  for (int64_t i = 0; i < n; ++i) s += x[i];
  return s;
}

constexpr int64_t kColumns = 512;  // columns summed together when the reduced axes are not the last ones

void reduce_sum_blocked(const ReducePlan& p, const float* x, float* y) {
  const int64_t outer = p.outer, red = p.reduce_size, inner = p.inner, work = outer * red * inner;
  if (inner == 1 && outer < 4 * omp_get_max_threads()) {
    // Few long lines: split each line over the threads.
    for (int64_t o = 0; o < outer; ++o) {
      const float* line = x + o * red;
      std::vector<double> partial(size_t(parallel_range_count(red)), 0.0);
      parallel_ranges(red, [&](int64_t b, int64_t e, int t) { partial[t] = sum_line(line + b, e - b); });
      double s = 0.0;
      for (double v : partial) s += v;
      y[o] = float(s);
    }
    return;
  }
  if (inner == 1) {
    parallel_ranges(outer, work, [&](int64_t b, int64_t e, int) {
      for (int64_t o = b; o < e; ++o) y[o] = float(sum_line(x + o * red, red));
    });
    return;
  }
  // Column sums of (red, inner) blocks, kColumns columns at a time.
  const int64_t chunks = (inner + kColumns - 1) / kColumns;
  parallel_ranges(outer * chunks, work, [&](int64_t b, int64_t e, int) {
    double acc[kColumns];
    for (int64_t u = b; u < e; ++u) {
      const int64_t o = u / chunks, j0 = (u % chunks) * kColumns, len = std::min(kColumns, inner - j0);
      std::fill(acc, acc + len, 0.0);
      for (int64_t r = 0; r < red; ++r) {
        const float* row = x + (o * red + r) * inner + j0;
#pragma omp simd
        for (int64_t j = 0; j < len; ++j) acc[j] += row[j];
      }
      float* yr = y + o * inner + j0;
      for (int64_t j = 0; j < len; ++j) yr[j] = float(acc[j]);
    }
  });
}

void broadcast_back_blocked(const ReducePlan& p, const float* dy, float* dx, bool accum, float scale) {
  const int64_t red = p.reduce_size, inner = p.inner, rows = p.outer * red;
  parallel_ranges(rows, rows * inner, [&](int64_t b, int64_t e, int) {
    for (int64_t row = b; row < e; ++row) {
      const float* g = dy + (row / red) * inner;
      float* d = dx + row * inner;
      if (accum) {
#pragma omp simd
        for (int64_t j = 0; j < inner; ++j) d[j] += g[j] * scale;
      } else {
#pragma omp simd
        for (int64_t j = 0; j < inner; ++j) d[j] = g[j] * scale;
      }
    }
  });
}
}  // namespace

void reduce_sum(const ReducePlan& p, const float* x, float* y) {
  if (p.blocked) {
    reduce_sum_blocked(p, x, y);
    return;
  }
#pragma omp parallel for if (p.out_size * p.reduce_size > (1 << 15))
  for (int64_t o = 0; o < p.out_size; ++o) {
    double s = 0;
    const float* base = x + p.out_offsets[o];
    for (int64_t r = 0; r < p.reduce_size; ++r) s += base[p.red_offsets[r]];
    y[o] = float(s);
  }
}

void broadcast_back(const ReducePlan& p, const float* dy, float* dx, bool accum, float scale) {
  if (p.blocked) {
    broadcast_back_blocked(p, dy, dx, accum, scale);
    return;
  }
#pragma omp parallel for if (p.out_size * p.reduce_size > (1 << 15))
  for (int64_t o = 0; o < p.out_size; ++o) {
    float g = dy[o] * scale;
    float* base = dx + p.out_offsets[o];
    for (int64_t r = 0; r < p.reduce_size; ++r) {
      float& d = base[p.red_offsets[r]];
      d = accum ? d + g : g;
    }
  }
}

}  // namespace nn::ops
