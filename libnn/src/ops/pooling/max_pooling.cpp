// MaxPooling: max over each (padding-clipped) window; forward records the argmax that backward routes to.
#include <algorithm>
#include <cstring>
#include <limits>

#include "ops/detail/channels_last_view.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/detail/vector_math.hpp"
#include "ops/pooling/pooling_common.hpp"

namespace nn::ops {
namespace {
class MaxPooling : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    plan_ = plan_pooling("MaxPooling", in[0]->shape(), attrs_);
    NN_CHECK(plan_.in_size < std::numeric_limits<int32_t>::max())
        << "MaxPooling: pooled map of " << plan_.in_size << " elements is too large";
    // argmax_ is sized by forward, which writes every entry: a setup alone (a GPU kernel's checks) allocates
    // nothing.
    forward_done_ = false;
    out[0]->reshape(plan_.y_shape, true);
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    if (forward_channels_last(in, out)) return;
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const PoolPlan& p = plan_;
    if (!grad_enabled() && p.kernel.size() == 2) {  // no backward can follow: the maxima alone
      for_maps([&](int64_t m) { max_2d_values(p, x + m * p.in_size, y + m * p.out_size); });
      forward_done_ = false;
      return;
    }
    argmax_.resize(size_t(p.maps * p.out_size));
    auto map = [&](int64_t m) {
      const float* xm = x + m * p.in_size;
      float* ym = y + m * p.out_size;
      int32_t* am = argmax_.data() + m * p.out_size;
      if (p.kernel.size() == 2) {
        max_2d(p, xm, ym, am);
        return;
      }
      for_each_window(p, [&](int64_t yi, const int64_t* lo, const int64_t* hi, const int64_t*) {
        // Branch-free running max (first maximum wins, as upstream): data-dependent branches mispredict.
        float best = -std::numeric_limits<float>::infinity();
        int64_t arg = -1;
        for_each_in_window(p, lo, hi, [&](int64_t xi) {
          const float v = xm[xi];
          const bool take = v > best || arg < 0;
          best = take ? v : best;
          arg = take ? xi : arg;
        });
        ym[yi] = arg < 0 ? 0.f : best;  // a window lying wholly in the padding yields 0
        am[yi] = int32_t(arg);
      });
    };
    for_maps(map);
    forward_done_ = true;
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    NN_CHECK(forward_done_) << "MaxPooling: backward needs a forward first (it records the argmax)";
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    const PoolPlan& p = plan_;
    auto map = [&](int64_t m) {
      float* dxm = dx + m * p.in_size;
      const float* dym = dy + m * p.out_size;
      const int32_t* am = argmax_.data() + m * p.out_size;
      for (int64_t i = 0; i < p.out_size; ++i)
        if (am[i] >= 0) dxm[am[i]] += dym[i];
    };
    for_maps(map);
  }

 private:
  // map(m) for every pooled map, on all threads when the maps are large enough together.
  template <class Map>
  void for_maps(Map&& map) const {
    const PoolPlan& p = plan_;
    if (p.maps * p.in_size >= kParallelThreshold && p.maps > 1) {
#pragma omp parallel for schedule(static)
      for (int64_t m = 0; m < p.maps; ++m) map(m);
    } else {
      for (int64_t m = 0; m < p.maps; ++m) map(m);
    }
  }

  // Gradients off and a channels-last input (a convolution's output): the maximum of each window's pixels
  // over all channels at once, output channels-last; no argmax (no backward follows).
  bool forward_channels_last(const Variables& in, const Variables& out) {
    const PoolPlan& p = plan_;
    if (p.kernel.size() != 2 || attrs_.get_bool("channel_last") || !held_channels_last(*in[0]->data()))
      return false;
    const Shape& xs = in[0]->shape();
    const int64_t c = xs[1], h = xs[2], w = xs[3], oh = p.out[0], ow = p.out[1];
    const float* x = static_cast<const float*>(in[0]->data()->get_raw(channels_last_key()));
    float* y = static_cast<float*>(out[0]->data()->cast_raw(channels_last_key(), true));
    const int64_t rows = xs[0] * oh;
    auto row = [&](int64_t r) {
      const int64_t n = r / oh, i = r % oh;
      const int64_t lo0 = p.lo[0][size_t(i)], hi0 = p.hi[0][size_t(i)];
      for (int64_t j = 0; j < ow; ++j) {
        const int64_t lo1 = p.lo[1][size_t(j)], hi1 = p.hi[1][size_t(j)];
        float* yp = y + (r * ow + j) * c;
        if (lo0 >= hi0 || lo1 >= hi1) {  // a window wholly in the padding yields 0
          std::fill(yp, yp + c, 0.f);
          continue;
        }
        const float* xp = x + ((n * h + lo0) * w + lo1) * c;
        const int64_t rows = hi0 - lo0, cols = hi1 - lo1;
        if (rows == 3 && cols == 3 && c % 16 == 0 && cpu_has_avx512())
          max_3x3_sixteen_channels(xp, w * c, c, yp);
        else if (rows == 3 && cols == 3)  // the common whole windows, with their loops unrolled
          max_window_channels<3, 3>(xp, w * c, c, rows, cols, yp);
        else if (rows == 2 && cols == 2)
          max_window_channels<2, 2>(xp, w * c, c, rows, cols, yp);
        else
          max_window_channels(xp, w * c, c, rows, cols, yp);
      }
    };
    parallel_ranges(rows, p.maps * p.in_size, [&](int64_t begin, int64_t end, int) {
      for (int64_t r = begin; r < end; ++r) row(r);
    });
    forward_done_ = false;  // no argmax was recorded
    return true;
  }

  // max_window_channels over a 3x3 window sixteen channels at a time in AVX-512 registers, for c a multiple of 16:
  // half the instructions (squeezenet's first 3x3 pooling, 64 channels over 111x111, one thread: 0.0585 ->
  // 0.0476 ms, medians of 4 alternating runs).
  __attribute__((target("avx512f"))) static void max_3x3_sixteen_channels(const float* x, int64_t row_stride,
                                                                          int64_t c, float* __restrict y) {
    max_window_channels<3, 3, 16>(x, row_stride, c, 3, 3, y);
  }

  // The channel-wise maximum over a rows x cols window of channels-last pixels (x: its first pixel), kLanes
  // channels at a time held in a vector register, so each output is stored once (GCC's vector extension:
  // the plain loop over 16 channels came out as 16 scalar maxima). kRows x kCols > 0 fixes the window at
  // compile time, unrolling its loops (squeezenet's 3x3 poolings of 64 channels over 111x111, one thread: the
  // three 0.130 -> 0.094 ms). Inlined where it is called, so that kLanes = 16 compiles in the AVX-512 caller.
  template <int kRows = 0, int kCols = 0, int kLanes = 8>
  __attribute__((always_inline)) static inline void max_window_channels(const float* x, int64_t row_stride,
                                                                        int64_t c, int64_t rows, int64_t cols,
                                                                        float* __restrict y) {
    typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));
    if (kRows > 0) rows = kRows, cols = kCols;
    int64_t k = 0;
    for (; k + kLanes <= c; k += kLanes) {
      Vec best;
      std::memcpy(&best, x + k, sizeof(best));
      for (int64_t a = 0; a < rows; ++a)
        for (int64_t b = 0; b < cols; ++b) {
          Vec v;
          std::memcpy(&v, x + a * row_stride + b * c + k, sizeof(v));
          best = v > best ? v : best;
        }
      std::memcpy(y + k, &best, sizeof(best));
    }
    for (; k < c; ++k) {
      float best = x[k];
      for (int64_t a = 0; a < rows; ++a)
        for (int64_t b = 0; b < cols; ++b) {
          const float v = x[a * row_stride + b * c + k];
          best = v > best ? v : best;
        }
      y[k] = best;
    }
  }

  // Walks one 2-D map row by row: border(i, j0, j1) for output row i's columns [j0, j1) whose window the padding
  // clips (all of them in a row whose window rows are all padding), whole(i, r0, r1, first, last) for its run
  // of whole-window columns [first, last) over input rows [r0, r1).
  template <class Border, class Whole>
  static void walk_2d(const PoolPlan& p, Border&& border, Whole&& whole) {
    const int64_t oh = p.out[0], ow = p.out[1], kw = p.kernel[1];
    int64_t first = 0, last = ow;  // [first, last): the whole-window columns
    while (first < ow && p.hi[1][size_t(first)] - p.lo[1][size_t(first)] != kw) ++first;
    last = first;
    while (last < ow && p.hi[1][size_t(last)] - p.lo[1][size_t(last)] == kw) ++last;
    for (int64_t i = 0; i < oh; ++i) {
      const int64_t r0 = p.lo[0][size_t(i)], r1 = p.hi[0][size_t(i)];
      if (r0 >= r1 || first >= last) {
        border(i, 0, ow);
        continue;
      }
      border(i, 0, first);
      whole(i, r0, r1, first, last);
      border(i, last, ow);
    }
  }

  // One 2-D map: the hot case (CNN max pooling). Columns whose window is whole (not clipped by the
  // padding) run as branch-free loops over the output columns that the compiler vectorizes; the few
  // clipped ones at the borders take the scalar path.
  static void max_2d(const PoolPlan& p, const float* xm, float* ym, int32_t* am) {
    const int64_t ow = p.out[1], kw = p.kernel[1];
    walk_2d(
        p, [&](int64_t i, int64_t j0, int64_t j1) { max_2d_columns(p, xm, i, j0, j1, ym + i * ow, am + i * ow); },
        [&](int64_t i, int64_t r0, int64_t r1, int64_t first, int64_t last) {
          float* yrow = ym + i * ow;
          int32_t* arow = am + i * ow;
          if (p.stride[1] == 2 && kw == 2 && r1 - r0 == 2)
            max_2x2_stride2(xm, p.in[1], r0, p.lo[1][size_t(first)], last - first, yrow + first, arow + first);
          else if (p.stride[1] == 2)
            max_2d_whole<2>(p, xm, r0, r1, first, last, yrow, arow);
          else if (p.stride[1] == 1)
            max_2d_whole<1>(p, xm, r0, r1, first, last, yrow, arow);
          else
            max_2d_whole<0>(p, xm, r0, r1, first, last, yrow, arow);
        });
  }

  // max_2d without the argmax (gradients off): whole-window columns as vectorized running maxima over the
  // window's elements, the clipped border columns through max_2d_columns.
  static void max_2d_values(const PoolPlan& p, const float* xm, float* ym) {
    const int64_t ow = p.out[1], kw = p.kernel[1], w = p.in[1], s = p.stride[1];
    walk_2d(
        p, [&](int64_t i, int64_t j0, int64_t j1) { max_2d_columns(p, xm, i, j0, j1, ym + i * ow, nullptr); },
        [&](int64_t i, int64_t r0, int64_t r1, int64_t first, int64_t last) {
          float* __restrict yrow = ym + i * ow + first;
          const int64_t c0 = p.lo[1][size_t(first)], n = last - first;
          if (s == 2 && kw == 2 && r1 - r0 == 2) {
            const float* __restrict up = xm + r0 * w + c0;
            const float* __restrict down = up + w;
            for (int64_t j = 0; j < n; ++j)
              yrow[j] = std::max(std::max(up[2 * j], up[2 * j + 1]), std::max(down[2 * j], down[2 * j + 1]));
            return;
          }
          const float* x0 = xm + r0 * w + c0;
          for (int64_t j = 0; j < n; ++j) yrow[j] = x0[j * s];
          for (int64_t r = r0; r < r1; ++r)
            for (int64_t k = 0; k < kw; ++k) {
              if (r == r0 && k == 0) continue;
              const float* __restrict xr = xm + r * w + c0 + k;
              for (int64_t j = 0; j < n; ++j) yrow[j] = xr[j * s] > yrow[j] ? xr[j * s] : yrow[j];
            }
        });
  }

  // Output columns [j0, j1) of output row i, one window at a time (first maximum wins, as upstream); arow null:
  // no argmax.
  static void max_2d_columns(const PoolPlan& p, const float* xm, int64_t i, int64_t j0, int64_t j1, float* yrow,
                             int32_t* arow) {
    const int64_t w = p.in[1], r0 = p.lo[0][size_t(i)], r1 = p.hi[0][size_t(i)];
    for (int64_t j = j0; j < j1; ++j) {
      const int64_t c0 = p.lo[1][size_t(j)], c1 = p.hi[1][size_t(j)];
      float best = -std::numeric_limits<float>::infinity();
      int32_t arg = -1;
      for (int64_t r = r0; r < r1; ++r)
        for (int64_t c = c0; c < c1; ++c) {
          const float v = xm[r * w + c];
          const bool take = v > best || arg < 0;
          best = take ? v : best;
          arg = take ? int32_t(r * w + c) : arg;
        }
      yrow[j] = arg < 0 ? 0.f : best;
      if (arow) arow[j] = arg;
    }
  }

  // The CNN case: whole 2x2 windows at stride 2, n output columns from input row r0 and column c0. Every
  // store is unconditional, so the loop vectorizes without masked stores (slow on some CPUs).
  static void max_2x2_stride2(const float* xm, int64_t w, int64_t r0, int64_t c0, int64_t n, float* __restrict y,
                              int32_t* __restrict a) {
    const float* __restrict up = xm + r0 * w + c0;
    const float* __restrict down = up + w;
    const int32_t base = int32_t(r0 * w + c0), below = int32_t(w);
    for (int64_t j = 0; j < n; ++j) {
      const int32_t at = base + int32_t(2 * j);
      float best = up[2 * j];
      int32_t arg = at;
      const float v1 = up[2 * j + 1], v2 = down[2 * j], v3 = down[2 * j + 1];
      const bool t1 = v1 > best;
      best = t1 ? v1 : best;
      arg = t1 ? at + 1 : arg;
      const bool t2 = v2 > best;
      best = t2 ? v2 : best;
      arg = t2 ? at + below : arg;
      const bool t3 = v3 > best;
      best = t3 ? v3 : best;
      arg = t3 ? at + below + 1 : arg;
      y[j] = best;
      a[j] = arg;
    }
  }

  // Whole-window columns [j0, j1) of one output row, rows [r0, r1) of the input: the window's first
  // element initializes, later ones replace only when strictly greater. kStride 0: the plan's stride.
  template <int kStride>
  static void max_2d_whole(const PoolPlan& p, const float* xm, int64_t r0, int64_t r1, int64_t j0, int64_t j1,
                           float* __restrict yrow, int32_t* __restrict arow) {
    const int64_t w = p.in[1], kw = p.kernel[1], n = j1 - j0;
    const int64_t s = kStride > 0 ? kStride : p.stride[1];
    const int64_t c0 = p.lo[1][size_t(j0)];
    float* __restrict y = yrow + j0;
    int32_t* __restrict a = arow + j0;
    const float* x0 = xm + r0 * w + c0;
    for (int64_t j = 0; j < n; ++j) {
      y[j] = x0[j * s];
      a[j] = int32_t(r0 * w + c0 + j * s);
    }
    for (int64_t r = r0; r < r1; ++r)
      for (int64_t k = 0; k < kw; ++k) {
        if (r == r0 && k == 0) continue;
        const int32_t offset = int32_t(r * w + c0 + k);
        const float* __restrict xr = xm + offset;
        for (int64_t j = 0; j < n; ++j) {
          const float v = xr[j * s];
          const bool take = v > y[j];
          y[j] = take ? v : y[j];
          a[j] = take ? offset + int32_t(j * s) : a[j];
        }
      }
  }

  PoolPlan plan_;
  std::vector<int32_t> argmax_;  // per output: offset of the max within its map (-1: empty window)
  bool forward_done_ = false;
};
}  // namespace

void register_max_pooling(OpRegistry& r) {
  register_cpu<MaxPooling>(r, SchemaBuilder("MaxPooling", "Neural Network Layer")
                                  .doc("max over kernel windows of the last len(kernel) axes")
                                  .in("x")
                                  .arg("kernel", AttrType::kShape)
                                  .arg("stride", AttrType::kShape, std::nullopt, "kernel")
                                  .arg("ignore_border", AttrType::kBool, AttrValue(true))
                                  .arg("pad", AttrType::kShape, std::nullopt, "0s")
                                  .arg("channel_last", AttrType::kBool, AttrValue(false))
                                  .out("y")
                                  .build());
}

}  // namespace nn::ops
