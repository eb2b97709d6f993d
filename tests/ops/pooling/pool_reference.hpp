// Double-precision reference for window pooling (max/average/sum) following nnabla's window rules.
#pragma once
#include <algorithm>
#include <limits>
#include <vector>

#include "op_tester.hpp"

namespace nn::test::pool_ref {

enum class Mode { kMax, kAverage, kSum };

struct PoolSpec {
  Shape kernel, stride, pad;  // stride empty: kernel; pad empty: zeros
  bool ignore_border = true;
  bool including_pad = true;
};

inline RefArray pool(const RefArray& x, PoolSpec s, Mode mode) {
  const size_t nd = s.kernel.size(), first = x.shape.size() - nd;
  if (s.stride.empty()) s.stride = s.kernel;
  if (s.pad.empty()) s.pad.assign(nd, 0);
  Shape in(x.shape.begin() + long(first), x.shape.end()), out;
  for (size_t d = 0; d < nd; ++d) {
    const int64_t w = in[d], k = s.kernel[d], st = s.stride[d], p = s.pad[d];
    out.push_back(s.ignore_border ? (w + 2 * p - k) / st + 1 : (w + p - 1) / st + 1);
  }
  Shape y_shape(x.shape.begin(), x.shape.begin() + long(first));
  y_shape.insert(y_shape.end(), out.begin(), out.end());
  const int64_t maps = ref_size(Shape(x.shape.begin(), x.shape.begin() + long(first)));
  const int64_t in_n = ref_size(in), out_n = ref_size(out);
  RefArray y{y_shape, std::vector<double>(size_t(maps * out_n))};
  for (int64_t m = 0; m < maps; ++m)
    for (int64_t oi = 0; oi < out_n; ++oi) {
      std::vector<int64_t> lo(nd), hi(nd);
      int64_t padded = 1, count = 1, r = oi;
      for (size_t d = nd; d-- > 0;) {
        const int64_t o = r % out[d];
        r /= out[d];
        const int64_t start = o * s.stride[d] - s.pad[d];
        const int64_t end = std::min(start + s.kernel[d], in[d] + s.pad[d]);
        padded *= end - start;
        lo[d] = std::max<int64_t>(start, 0);
        hi[d] = std::min(end, in[d]);
        count *= std::max<int64_t>(hi[d] - lo[d], 0);
      }
      double acc = mode == Mode::kMax ? -std::numeric_limits<double>::infinity() : 0.0;
      for (int64_t xi = 0; xi < in_n; ++xi) {  // every input element, kept when inside the window
        int64_t q = xi;
        bool inside = true;
        for (size_t d = nd; d-- > 0;) {
          const int64_t c = q % in[d];
          q /= in[d];
          inside &= c >= lo[d] && c < hi[d];
        }
        if (!inside) continue;
        const double v = x.data[size_t(m * in_n + xi)];
        acc = mode == Mode::kMax ? std::max(acc, v) : acc + v;
      }
      if (mode == Mode::kAverage) acc /= double(s.including_pad ? padded : count);
      y.data[size_t(m * out_n + oi)] = acc;
    }
  return y;
}

inline Attrs pool_attrs(const PoolSpec& s, bool with_including_pad) {
  Attrs a{{"kernel", s.kernel}, {"ignore_border", s.ignore_border}};
  if (!s.stride.empty()) a.set("stride", s.stride);
  if (!s.pad.empty()) a.set("pad", s.pad);
  if (with_including_pad) a.set("including_pad", s.including_pad);
  return a;
}

}  // namespace nn::test::pool_ref
