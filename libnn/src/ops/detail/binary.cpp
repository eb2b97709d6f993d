// Broadcast planning for the binary family: per-input strides and the collapsed (outer groups, contiguous
// inner run) view the kernels loop over.
#include "ops/detail/binary.hpp"

#include <algorithm>

namespace nn::ops {

namespace {
// Merges adjacent output dims where each input is broadcast (or not) alike, dropping size-1 dims; fills
// the collapsed sizes and per-input strides (0 where broadcast) of the plan, innermost group last.
void collapse(const Shape& pa, const Shape& pb, const Shape& out, BroadcastPlan& p) {
  std::vector<int64_t> sizes;
  std::vector<bool> bcast_a, bcast_b;  // innermost first while building
  for (int d = int(out.size()) - 1; d >= 0; --d) {
    if (out[d] == 1) continue;
    const bool ba = pa[d] == 1, bb = pb[d] == 1;
    if (!sizes.empty() && bcast_a.back() == ba && bcast_b.back() == bb) {
      sizes.back() *= out[d];
    } else {
      sizes.push_back(out[d]);
      bcast_a.push_back(ba);
      bcast_b.push_back(bb);
    }
  }
  if (sizes.empty()) {  // a single element
    sizes.push_back(1);
    bcast_a.push_back(false);
    bcast_b.push_back(false);
  }
  const size_t n = sizes.size();
  p.group_size.assign(n, 0);
  p.group_stride_a.assign(n, 0);
  p.group_stride_b.assign(n, 0);
  int64_t extent_a = 1, extent_b = 1;
  for (size_t g = 0; g < n; ++g) {  // g counts from the innermost group
    const size_t slot = n - 1 - g;
    p.group_size[slot] = sizes[g];
    p.group_stride_a[slot] = bcast_a[g] ? 0 : extent_a;
    p.group_stride_b[slot] = bcast_b[g] ? 0 : extent_b;
    if (!bcast_a[g]) extent_a *= sizes[g];
    if (!bcast_b[g]) extent_b *= sizes[g];
  }
  p.inner = sizes[0];
  p.inner_stride_a = bcast_a[0] ? 0 : 1;
  p.inner_stride_b = bcast_b[0] ? 0 : 1;
  p.full_a = std::none_of(bcast_a.begin(), bcast_a.end(), [](bool b) { return b; });
  p.full_b = std::none_of(bcast_b.begin(), bcast_b.end(), [](bool b) { return b; });
}
}  // namespace

BroadcastPlan make_broadcast_plan(const Shape& a, const Shape& b, const std::string& op) {
  BroadcastPlan p;
  const size_t nd = std::max(a.size(), b.size());
  Shape pa(nd, 1), pb(nd, 1);
  std::copy(a.begin(), a.end(), pa.begin() + (nd - a.size()));
  std::copy(b.begin(), b.end(), pb.begin() + (nd - b.size()));
  p.out_shape.resize(nd);
  for (size_t i = 0; i < nd; ++i) {
    NN_CHECK(pa[i] == pb[i] || pa[i] == 1 || pb[i] == 1)
        << op << ": shapes " << to_string(a) << " and " << to_string(b) << " cannot be broadcast";
    p.out_shape[i] = pa[i] == 1 ? pb[i] : pa[i];
  }
  p.same = pa == p.out_shape && pb == p.out_shape;
  auto sa = shape_strides(pa), sb = shape_strides(pb);
  p.stride_a.resize(nd);
  p.stride_b.resize(nd);
  for (size_t i = 0; i < nd; ++i) {
    p.stride_a[i] = pa[i] == 1 ? 0 : sa[i];
    p.stride_b[i] = pb[i] == 1 ? 0 : sb[i];
  }
  collapse(pa, pb, p.out_shape, p);
  return p;
}

void broadcast_offsets(const BroadcastPlan& p, int64_t i, int64_t& ia, int64_t& ib) {
  ia = ib = 0;
  for (int d = int(p.out_shape.size()) - 1; d >= 0; --d) {
    int64_t k = i % p.out_shape[d];
    i /= p.out_shape[d];
    ia += k * p.stride_a[d];
    ib += k * p.stride_b[d];
  }
}

BroadcastCursor::BroadcastCursor(const BroadcastPlan& p, int64_t begin) : plan_(p), index_(p.group_size.size()) {
  int64_t rest = begin;
  for (int g = int(index_.size()) - 1; g >= 0; --g) {
    index_[g] = rest % p.group_size[g];
    rest /= p.group_size[g];
    offset_a_ += index_[g] * p.group_stride_a[g];
    offset_b_ += index_[g] * p.group_stride_b[g];
  }
}

void BroadcastCursor::advance(int64_t count) {
  // Only ever called with the rest of the current inner run (or less, at the end of a range).
  const int last = int(index_.size()) - 1;
  index_[last] += count;
  offset_a_ += count * plan_.group_stride_a[last];
  offset_b_ += count * plan_.group_stride_b[last];
  for (int g = last; g > 0 && index_[g] == plan_.group_size[g]; --g) {
    offset_a_ -= plan_.group_size[g] * plan_.group_stride_a[g];
    offset_b_ -= plan_.group_size[g] * plan_.group_stride_b[g];
    index_[g] = 0;
    ++index_[g - 1];
    offset_a_ += plan_.group_stride_a[g - 1];
    offset_b_ += plan_.group_stride_b[g - 1];
  }
}

}  // namespace nn::ops
