// Elementwise binary family with numpy broadcasting: an op supplies f(a, b), da(a, b, y), db(a, b, y).
#pragma once
#include <vector>

#include "ops/detail/op_common.hpp"

namespace nn::ops {

// Broadcast plan: output shape and, per input, strides (0 on broadcast axes) over the output index space.
struct BroadcastPlan {
  Shape out_shape;
  std::vector<int64_t> stride_a, stride_b;
  bool same = false;  // both inputs already have the output shape
};
BroadcastPlan make_broadcast_plan(const Shape& a, const Shape& b, const std::string& op);
// Offsets into a and b for output element i (general path).
void broadcast_offsets(const BroadcastPlan& p, int64_t i, int64_t& ia, int64_t& ib);

template <class Op>
class BinaryFunction : public Function {
 public:
  BinaryFunction(const OpSchema& s, const Context& c, const Attrs& a) : Function(s, c, a), p_(a) {}
  bool grad_depends_output_data(int, int) const override { return Op::kUsesOutput; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    plan_ = make_broadcast_plan(in[0]->shape(), in[1]->shape(), type());
    out[0]->reshape(plan_.out_shape, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* a = in_data(in[0]);
    const float* b = in_data(in[1]);
    float* y = out_data(out[0]);
    const int64_t n = out[0]->size();
    const auto p = p_;
    if (plan_.same) {
      parallel_for(n, [&](int64_t i) { y[i] = Op::f(a[i], b[i], p); });
    } else {
      parallel_for(n, [&](int64_t i) {
        int64_t ia, ib;
        broadcast_offsets(plan_, i, ia, ib);
        y[i] = Op::f(a[ia], b[ib], p);
      });
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* a = in_data(in[0]);
    const float* b = in_data(in[1]);
    const float* y = Op::kUsesOutput ? in_data(out[0]) : nullptr;
    const float* dy = out_grad(out[0]);
    const int64_t n = out[0]->size();
    const auto p = p_;
    if (plan_.same) {
      if (prop[0]) {
        float* da = in_grad(in[0], accum[0]);
        bool acc = accum[0];
        parallel_for(n, [&](int64_t i) { store_grad(da, i, dy[i] * Op::da(a[i], b[i], y ? y[i] : 0.f, p), acc); });
      }
      if (prop[1]) {
        float* db = in_grad(in[1], accum[1]);
        bool acc = accum[1];
        parallel_for(n, [&](int64_t i) { store_grad(db, i, dy[i] * Op::db(a[i], b[i], y ? y[i] : 0.f, p), acc); });
      }
      return;
    }
    // Broadcast: reduce into the smaller input serially (avoids write races).
    float* da = prop[0] ? in_grad_zeroed(in[0], accum[0]) : nullptr;
    float* db = prop[1] ? in_grad_zeroed(in[1], accum[1]) : nullptr;
    for (int64_t i = 0; i < n; ++i) {
      int64_t ia, ib;
      broadcast_offsets(plan_, i, ia, ib);
      float yi = y ? y[i] : 0.f;
      if (da) da[ia] += dy[i] * Op::da(a[ia], b[ib], yi, p);
      if (db) db[ib] += dy[i] * Op::db(a[ia], b[ib], yi, p);
    }
  }

 private:
  typename Op::Params p_;
  BroadcastPlan plan_;
};

}  // namespace nn::ops
