// MinMaxQuantize: quantization over the range [qr_min, qr_max] (nudged so zero is exact) with ql levels.
#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/detail/op_common.hpp"
#include "ops/quantization/bcast_index.hpp"

namespace nn::ops {
namespace {

class MinMaxQuantize : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const Shape& qs = in[1]->shape();
    for (int i = 2; i < 5; ++i)
      NN_CHECK(in[i]->shape() == qs) << "MinMaxQuantize: qr_min, qr_max, ql_min and ql_max must have the same "
                                     << "shape, got " << to_string(qs) << " and " << to_string(in[i]->shape());
    NN_CHECK(broadcastable_to(qs, xs)) << "MinMaxQuantize: x shape " << to_string(xs) << " and range shape "
                                       << to_string(qs) << " must match except where the range has size 1";
    bcast_ = BroadcastIndex(xs, qs);
    decay_ = float(attrs_.get_float("decay"));
    eps_ = float(attrs_.get_float("eps"));
    x_min_max_ = attrs_.get_bool("x_min_max");
    ema_ = attrs_.get_bool("ema");
    fine_ = attrs_.get_bool("ste_fine_grained");
    out[0]->reshape(xs, true);
  }

  // Updates qr_min/qr_max from x when x_min_max (moving average when ema), as upstream does in place.
  void update_range(Variable* x, Variable* qr_min, Variable* qr_max) {
    const int64_t nq = qr_min->size();
    std::vector<float> lo(size_t(nq), INFINITY), hi(size_t(nq), -INFINITY);
    const float* xd = in_data(x);
    for (int64_t i = 0; i < x->size(); ++i) {
      const int64_t j = bcast_(i);
      lo[j] = std::min(lo[j], xd[i]);
      hi[j] = std::max(hi[j], xd[i]);
    }
    float* mn = qr_min->data()->cast<float>();
    float* mx = qr_max->data()->cast<float>();
    for (int64_t j = 0; j < nq; ++j) {
      mn[j] = ema_ ? decay_ * mn[j] + (1 - decay_) * lo[j] : lo[j];
      mx[j] = ema_ ? decay_ * mx[j] + (1 - decay_) * hi[j] : hi[j];
    }
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    if (x_min_max_) update_range(in[0], in[1], in[2]);
    const int64_t nq = in[1]->size();
    const float* mn = in_data(in[1]);
    float* mx = in[2]->data()->cast<float>();
    const float* lmin = in_data(in[3]);
    const float* lmax = in_data(in[4]);
    scale_.assign(size_t(nq), 0.f);
    lo_.assign(size_t(nq), 0.f);
    hi_.assign(size_t(nq), 0.f);
    for (int64_t j = 0; j < nq; ++j) {
      if (mx[j] - mn[j] < eps_) mx[j] = mn[j] + eps_;  // upstream widens qr_max in place
      scale_[j] = (mx[j] - mn[j]) / (lmax[j] - lmin[j]);
      const float zero_from_min = lmin[j] - mn[j] / scale_[j];
      float zero = zero_from_min <= lmin[j]   ? lmin[j]
                   : zero_from_min >= lmax[j] ? lmax[j]
                                              : std::round(zero_from_min);
      lo_[j] = (lmin[j] - zero) * scale_[j];
      hi_[j] = (lmax[j] - zero) * scale_[j];
    }
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < in[0]->size(); ++i) {
      const int64_t j = bcast_(i);
      const float c = std::min(std::max(x[i], lo_[j]), hi_[j]);
      y[i] = std::round((c - lo_[j]) / scale_[j]) * scale_[j] + lo_[j];
    }
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    NN_CHECK(!prop[3] && !prop[4]) << "MinMaxQuantize: no gradient w.r.t. ql_min or ql_max";
    const float* x = in_data(in[0]);
    const float* dy = out_grad(out[0]);
    const int64_t n = in[0]->size();
    if (prop[0]) {
      float* dx = in_grad(in[0], accum[0]);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t j = bcast_(i);
        const bool pass = !fine_ || (x[i] >= lo_[j] && x[i] <= hi_[j]);
        store_grad(dx, i, pass ? dy[i] : 0.f, accum[0]);
      }
    }
    for (int k = 1; k <= 2; ++k) {
      if (!prop[k]) continue;
      float* g = in_grad_zeroed(in[k], accum[k]);
      if (x_min_max_ || ema_) continue;  // the range follows x: no gradient, as upstream
      for (int64_t i = 0; i < n; ++i) {
        const int64_t j = bcast_(i);
        const bool outside = k == 1 ? x[i] < lo_[j] : x[i] > hi_[j];
        if (outside) g[j] += dy[i];
      }
    }
  }

 private:
  BroadcastIndex bcast_;
  float decay_ = 0.999f, eps_ = 0.01f;
  bool x_min_max_ = false, ema_ = false, fine_ = true;
  std::vector<float> scale_, lo_, hi_;  // per range element, from the last forward
};

}  // namespace

void register_min_max_quantize(OpRegistry& r) {
  register_cpu<MinMaxQuantize>(r, SchemaBuilder("MinMaxQuantize", "Quantization Neural Network Layers")
                                      .doc("min-max range quantization with nudged zero point")
                                      .in("x")
                                      .in_param("qr_min")
                                      .in_param("qr_max")
                                      .in("ql_min")
                                      .in("ql_max")
                                      .arg("decay", AttrType::kFloat, AttrValue(0.999))
                                      .arg("x_min_max", AttrType::kBool, AttrValue(false))
                                      .arg("ema", AttrType::kBool, AttrValue(false))
                                      .arg("ste_fine_grained", AttrType::kBool, AttrValue(true))
                                      .arg("eps", AttrType::kFloat, AttrValue(0.01))
                                      .out("y")
                                      .build());
}

}  // namespace nn::ops
