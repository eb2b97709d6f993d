// Pooling arguments and geometry shared by MaxPooling, AveragePooling, SumPooling and Unpooling, on the CPU
// and on CUDA: nnabla's output-size and window rules.
#pragma once
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "nn/core/shape.hpp"
#include "nn/ops/attributes.hpp"

namespace nn::ops {

constexpr size_t kMaxPoolAxes = 8;

// The last kernel.size() axes are pooled; all leading axes form `maps` independent maps.
struct PoolPlan {
  Shape kernel, stride, pad, in, out, y_shape;
  int64_t maps = 1, in_size = 1, out_size = 1;
  // Per pooled axis d and output index o: clamped window [lo, hi) and the window length counting padding.
  std::vector<std::vector<int64_t>> lo, hi, padded_len;
};
// Reads kernel/stride/pad/ignore_border/channel_last (nnabla's names and defaults) and plans the pooling.
// Output size per axis: ignore_border ? (w + 2p - k) / s + 1 : (w + p - 1) / s + 1.
PoolPlan plan_pooling(const std::string& fn, const Shape& x, const Attrs& attrs);
// AveragePooling's including_pad: padding counts in a window's size.
inline bool including_pad(const Attrs& attrs) { return attrs.get_bool("including_pad"); }
// Unpooling's kernel (the factor of each of x's last kernel.size() axes), checked against x.
Shape unpooling_kernel(const Shape& x, const Attrs& attrs);

// Calls f(y_index, lo, hi) for every output position of one map, with lo/hi arrays of the clamped window.
template <class F>
void for_each_window(const PoolPlan& p, F&& f) {
  const size_t nd = p.kernel.size();
  std::array<int64_t, kMaxPoolAxes> o{}, lo{}, hi{};
  if (nd == 2) {  // the common case, without the odometer
    const int64_t* lo0 = p.lo[0].data();
    const int64_t* hi0 = p.hi[0].data();
    const int64_t* lo1 = p.lo[1].data();
    const int64_t* hi1 = p.hi[1].data();
    int64_t y = 0;
    for (o[0] = 0; o[0] < p.out[0]; ++o[0]) {
      lo[0] = lo0[o[0]];
      hi[0] = hi0[o[0]];
      for (o[1] = 0; o[1] < p.out[1]; ++o[1], ++y) {
        lo[1] = lo1[o[1]];
        hi[1] = hi1[o[1]];
        f(y, lo.data(), hi.data(), o.data());
      }
    }
    return;
  }
  for (int64_t y = 0; y < p.out_size; ++y) {
    for (size_t d = 0; d < nd; ++d) {
      lo[d] = p.lo[d][size_t(o[d])];
      hi[d] = p.hi[d][size_t(o[d])];
    }
    f(y, lo.data(), hi.data(), o.data());
    for (size_t d = nd; d-- > 0;) {
      if (++o[d] < p.out[d]) break;
      o[d] = 0;
    }
  }
}

// Calls g(x_offset) for every input element of the window [lo, hi) (offsets within one map).
template <class G>
[[gnu::always_inline]] inline void for_each_in_window(const PoolPlan& p, const int64_t* lo, const int64_t* hi,
                                                      G&& g) {
  const size_t nd = p.kernel.size();
  if (nd == 1) {
    for (int64_t i = lo[0]; i < hi[0]; ++i) g(i);
    return;
  }
  if (nd == 2) {
    const int64_t w = p.in[1];
    for (int64_t i = lo[0]; i < hi[0]; ++i)
      for (int64_t j = lo[1]; j < hi[1]; ++j) g(i * w + j);
    return;
  }
  for (size_t d = 0; d < nd; ++d)
    if (lo[d] >= hi[d]) return;
  std::array<int64_t, kMaxPoolAxes> idx{};
  std::copy(lo, lo + nd, idx.begin());
  while (true) {
    int64_t off = 0;
    for (size_t d = 0; d < nd; ++d) off = off * p.in[d] + idx[d];
    g(off);
    size_t d = nd;
    while (d-- > 0) {
      if (++idx[d] < hi[d]) break;
      idx[d] = lo[d];
    }
    if (d == size_t(-1)) return;
  }
}

}  // namespace nn::ops
