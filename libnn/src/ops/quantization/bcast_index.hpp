// Maps a flat index of x onto a same-rank array whose dims are 1 (broadcast) or equal to x's.
#pragma once
#include <vector>

#include "nn/core/shape.hpp"

namespace nn::ops {

class BroadcastIndex {
 public:
  BroadcastIndex() = default;
  BroadcastIndex(const Shape& x, const Shape& b) : dims_(x) {
    Shape bstr = shape_strides(b);
    strides_.resize(x.size());
    for (size_t d = 0; d < x.size(); ++d) strides_[d] = b[d] == 1 ? 0 : bstr[d];
  }
  int64_t operator()(int64_t i) const {
    int64_t j = 0;
    for (int d = int(dims_.size()) - 1; d >= 0; --d) {
      j += (i % dims_[d]) * strides_[d];
      i /= dims_[d];
    }
    return j;
  }

 private:
  Shape dims_, strides_;
};

// True when b has x's rank and each dim is 1 or equal to x's.
inline bool broadcastable_to(const Shape& b, const Shape& x) {
  if (b.size() != x.size()) return false;
  for (size_t d = 0; d < x.size(); ++d)
    if (b[d] != 1 && b[d] != x[d]) return false;
  return true;
}

}  // namespace nn::ops
