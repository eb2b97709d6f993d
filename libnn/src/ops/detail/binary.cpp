// Broadcast planning for the binary family.
#include "ops/detail/binary.hpp"

namespace nn::ops {

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

}  // namespace nn::ops
