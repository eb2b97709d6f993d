// Elementwise binary family with numpy broadcasting: an op supplies f(a, b), da(a, b, y), db(a, b, y).
#pragma once
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "ops/detail/channels_last_view.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {

// Broadcast plan: output shape and, per input, strides (0 on broadcast axes) over the output index space;
// plus the collapsed view the kernels use: groups of merged output dims (outermost first) with per-input
// strides, the innermost group being a contiguous run of `inner` elements with unit or zero input strides.
struct BroadcastPlan {
  Shape out_shape;
  std::vector<int64_t> stride_a, stride_b;
  bool same = false;  // both inputs already have the output shape
  std::vector<int64_t> group_size, group_stride_a, group_stride_b;
  int64_t inner = 1, inner_stride_a = 1, inner_stride_b = 1;
  bool full_a = true, full_b = true;  // the input is not broadcast (its offsets equal the output's)
};
BroadcastPlan make_broadcast_plan(const Shape& a, const Shape& b, const std::string& op);
// Offsets into a and b for output element i (general path).
void broadcast_offsets(const BroadcastPlan& p, int64_t i, int64_t& ia, int64_t& ib);

// Walks the output in contiguous runs of the innermost group, tracking the input offsets.
class BroadcastCursor {
 public:
  BroadcastCursor(const BroadcastPlan& p, int64_t begin);
  int64_t offset_a() const { return offset_a_; }
  int64_t offset_b() const { return offset_b_; }
  int64_t run_left() const { return plan_.inner - index_.back(); }
  void advance(int64_t count);

 private:
  const BroadcastPlan& plan_;
  std::vector<int64_t> index_;
  int64_t offset_a_ = 0, offset_b_ = 0;
};

// Calls run(out_offset, a_offset, b_offset, length) for the contiguous runs covering outputs [begin, end).
template <class Run>
void for_each_run(const BroadcastPlan& p, int64_t begin, int64_t end, Run&& run) {
  if (begin >= end) return;
  BroadcastCursor cursor(p, begin);
  for (int64_t i = begin; i < end;) {
    const int64_t len = std::min(cursor.run_left(), end - i);
    run(i, cursor.offset_a(), cursor.offset_b(), len);
    cursor.advance(len);
    i += len;
  }
}

// Calls body(sa, sb) with the run strides (each 0 or 1) as compile-time constants, so inner loops index
// a[sa * i] without a multiply and vectorize.
template <class Body>
void with_run_strides(const BroadcastPlan& p, Body&& body) {
  using One = std::integral_constant<int64_t, 1>;
  using Zero = std::integral_constant<int64_t, 0>;
  if (p.inner_stride_a) {
    if (p.inner_stride_b)
      body(One{}, One{});
    else
      body(One{}, Zero{});
  } else {
    if (p.inner_stride_b)
      body(Zero{}, One{});
    else
      body(Zero{}, Zero{});
  }
}

// Outputs above this many bytes cannot stay in the caches with their inputs: they are written with
// non-temporal stores, which skip reading each output line before overwriting it (a third of the traffic).
constexpr int64_t kStreamingStoreBytes = int64_t(16) << 20;

// yr[i] = Op::f(ar[sa * i], br[sb * i]) for i in [0, len); `stream`: 32-byte-aligned blocks of 8 go through
// non-temporal stores (the caller issues _mm_sfence before other threads read yr).
template <class Op, class SA, class SB>
inline void binary_run(float* yr, const float* ar, const float* br, int64_t len, SA sa, SB sb,
                       const typename Op::Params& p, bool stream) {
  int64_t i = 0;
  if (stream) {
    for (; i < len && (reinterpret_cast<uintptr_t>(yr + i) & 31) != 0; ++i)
      yr[i] = Op::f(ar[sa * i], br[sb * i], p);
    for (; i + 8 <= len; i += 8) {
      alignas(32) float block[8];
#pragma omp simd
      for (int64_t k = 0; k < 8; ++k) block[k] = Op::f(ar[sa * (i + k)], br[sb * (i + k)], p);
      _mm256_stream_ps(yr + i, _mm256_load_ps(block));
    }
  }
#pragma omp simd
  for (int64_t j = i; j < len; ++j) yr[j] = Op::f(ar[sa * j], br[sb * j], p);
}

template <class Op>
class BinaryFunction : public Function {
 public:
  BinaryFunction(const OpSchema& s, const Context& c, const Attrs& a) : Function(s, c, a), p_(attrs_) {}
  bool grad_depends_output_data(int, int) const override { return Op::kUsesOutput; }
  // An input that is not broadcast: output element i reads its element i (both paths read their inputs
  // before taking the output for writing).
  bool forward_in_place(int i) const override { return i == 0 ? plan_.full_a : plan_.full_b; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    plan_ = make_broadcast_plan(in[0]->shape(), in[1]->shape(), type());
    out[0]->reshape(plan_.out_shape, true);
    // The same operation seen in channels-last order (N, H, W, C), for operands a convolution left so.
    const Shape &sa = in[0]->shape(), &sb = in[1]->shape();
    channels_last_ok_ = sa.size() == 4 && sb.size() == 4 && plan_.out_shape.size() == 4;
    if (channels_last_ok_)
      channels_last_plan_ =
          make_broadcast_plan({sa[0], sa[2], sa[3], sa[1]}, {sb[0], sb[2], sb[3], sb[1]}, type());
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    if (channels_last_ok_ && forward_channels_last(in, out)) return;
    const float* a = in_data(in[0]);  // the inputs first: the output may be one of their arrays (in place)
    const float* b = in_data(in[1]);
    run_forward(plan_, a, b, out_data(out[0]), out[0]->size());
  }
  // Gradients off and an operand held channels-last: the other is too, or has 1x1 spatial axes (the same
  // order either way: squeeze-excite's scale); the output stays channels-last.
  bool forward_channels_last(const Variables& in, const Variables& out) {
    NdArray &a = *in[0]->data(), &b = *in[1]->data();
    const bool a_cl = held_channels_last(a), b_cl = held_channels_last(b);
    auto pointwise = [](Variable* v) { return v->shape()[2] == 1 && v->shape()[3] == 1; };
    if (!(a_cl || b_cl) || !(a_cl || pointwise(in[0])) || !(b_cl || pointwise(in[1]))) return false;
    const float* pa = static_cast<const float*>(a_cl ? a.get_raw(channels_last_key()) : a.get<float>());
    const float* pb = static_cast<const float*>(b_cl ? b.get_raw(channels_last_key()) : b.get<float>());
    run_forward(channels_last_plan_, pa, pb,
                static_cast<float*>(out[0]->data()->cast_raw(channels_last_key(), true)), out[0]->size());
    return true;
  }
  void run_forward(const BroadcastPlan& plan, const float* a, const float* b, float* y, int64_t size) const {
    const auto p = p_;
    const bool stream = size * int64_t(sizeof(float)) > kStreamingStoreBytes;
    parallel_ranges(size, [&](int64_t begin, int64_t end, int) {
      for_each_run(plan, begin, end, [&](int64_t o, int64_t oa, int64_t ob, int64_t len) {
        with_run_strides(plan,
                         [&](auto sa, auto sb) { binary_run<Op>(y + o, a + oa, b + ob, len, sa, sb, p, stream); });
      });
      if (stream) _mm_sfence();
    });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* a = in_data(in[0]);
    const float* b = in_data(in[1]);
    const float* y = Op::kUsesOutput ? in_data(out[0]) : nullptr;
    const float* dy = out_grad(out[0]);
    if (prop[0]) input_grad<0>(a, b, y, dy, in[0], accum[0], out[0]->size());
    if (prop[1]) input_grad<1>(a, b, y, dy, in[1], accum[1], out[0]->size());
  }

 private:
  // d y / d input X at one element.
  template <int X>
  static float partial(float a, float b, float y, const typename Op::Params& p) {
    if constexpr (X == 0)
      return Op::da(a, b, y, p);
    else
      return Op::db(a, b, y, p);
  }
  // Calls term(o, ar, br, len, sa, sb, value_at) per run of [begin, end); value_at(i) is dy * dy/dX.
  template <int X, class Term>
  void for_each_grad_run(const float* a, const float* b, const float* y, const float* dy, int64_t begin,
                         int64_t end, Term&& term) const {
    const auto p = p_;
    for_each_run(plan_, begin, end, [&](int64_t o, int64_t oa, int64_t ob, int64_t len) {
      const float* ar = a + oa;
      const float* br = b + ob;
      const float* yr = y ? y + o : nullptr;
      const float* dyr = dy + o;
      with_run_strides(plan_, [&](auto sa, auto sb) {
        auto value_at = [=](int64_t i) {
          const float yi = Op::kUsesOutput ? yr[i] : 0.f;
          return dyr[i] * partial<X>(ar[sa * i], br[sb * i], yi, p);
        };
        term(o, X == 0 ? oa : ob, len, value_at);
      });
    });
  }

  template <int X>
  void input_grad(const float* a, const float* b, const float* y, const float* dy, Variable* v, bool accum,
                  int64_t n) const {
    const bool full = X == 0 ? plan_.full_a : plan_.full_b;
    if (full) {  // same layout as the output: elementwise
      float* g = in_grad(v, accum);
      parallel_ranges(n, [&](int64_t begin, int64_t end, int) {
        for_each_grad_run<X>(a, b, y, dy, begin, end, [&](int64_t o, int64_t, int64_t len, auto value_at) {
          float* gr = g + o;
          if (accum) {
#pragma omp simd
            for (int64_t i = 0; i < len; ++i) gr[i] += value_at(i);
          } else {
#pragma omp simd
            for (int64_t i = 0; i < len; ++i) gr[i] = value_at(i);
          }
        });
      });
      return;
    }
    // Broadcast input: every thread sums its share of the output into its own buffer; buffers added last.
    const int64_t m = v->size();
    const bool unit = (X == 0 ? plan_.inner_stride_a : plan_.inner_stride_b) != 0;
    std::vector<float> partials(size_t(parallel_range_count(n) * m), 0.f);
    parallel_ranges(n, [&](int64_t begin, int64_t end, int t) {
      float* acc = partials.data() + int64_t(t) * m;
      for_each_grad_run<X>(a, b, y, dy, begin, end, [&](int64_t, int64_t ox, int64_t len, auto value_at) {
        if (unit) {
          float* accr = acc + ox;
#pragma omp simd
          for (int64_t i = 0; i < len; ++i) accr[i] += value_at(i);
        } else {
          float s = 0.f;
#pragma omp simd reduction(+ : s)
          for (int64_t i = 0; i < len; ++i) s += value_at(i);
          acc[ox] += s;
        }
      });
    });
    float* g = in_grad(v, accum);
    const int64_t buffers = int64_t(partials.size()) / std::max<int64_t>(m, 1);
    for (int64_t j = 0; j < m; ++j) {
      float s = partials[j];
      for (int64_t t = 1; t < buffers; ++t) s += partials[t * m + j];
      g[j] = accum ? g[j] + s : s;
    }
  }

  typename Op::Params p_;
  BroadcastPlan plan_;
  BroadcastPlan channels_last_plan_;  // plan_ in (N, H, W, C) order, for 4-D operands
  bool channels_last_ok_ = false;
};

}  // namespace nn::ops
