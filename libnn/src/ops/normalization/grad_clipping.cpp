// ClipGradByValue and ClipGradByNorm: identity in forward, the gradient clipped in backward (as upstream).
#include <algorithm>
#include <cmath>

#include "ops/detail/op_common.hpp"
#include "ops/detail/reduce.hpp"

namespace nn::ops {
namespace {

// y = x; dx = clip(dy, min, max) elementwise. min and max (same shape as x) receive no gradient.
class ClipGradByValue : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int i, int j) const override { return j != 0; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    for (int k = 1; k <= 2; ++k)
      NN_CHECK(in[k]->shape() == in[0]->shape())
          << "ClipGradByValue: " << (k == 1 ? "min" : "max") << " shape " << to_string(in[k]->shape())
          << " must equal x shape " << to_string(in[0]->shape());
    out[0]->reshape(in[0]->shape(), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    std::copy_n(in_data(in[0]), in[0]->size(), out_data(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* lo = in_data(in[1]);
    const float* hi = in_data(in[2]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const bool acc = accum[0];
    parallel_for(in[0]->size(),
                 [&](int64_t i) { store_grad(dx, i, std::min(std::max(dy[i], lo[i]), hi[i]), acc); });
  }
};

// y = x; dx = clip_norm * dy / ||dy||_2, the norm taken over `axes` (default all) and broadcast back.
class ClipGradByNorm : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    std::vector<int64_t> axes = attrs_.get_ints("axes", {});
    for (auto& a : axes) {
      if (a < 0) a += in[0]->ndim();
      NN_CHECK(a >= 0 && a < in[0]->ndim())
          << "ClipGradByNorm: axis " << a << " out of range for x shape " << to_string(in[0]->shape());
    }
    plan_ = make_reduce_plan(in[0]->shape(), axes, attrs_.has("axes"), true);
    out[0]->reshape(in[0]->shape(), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    std::copy_n(in_data(in[0]), in[0]->size(), out_data(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const int64_t n = in[0]->size();
    const float* dy = out_grad(out[0]);
    std::vector<float> squares(static_cast<size_t>(n)), norms(static_cast<size_t>(n));
    std::vector<float> sums(static_cast<size_t>(plan_.out_size));
    for (int64_t i = 0; i < n; ++i) squares[size_t(i)] = dy[i] * dy[i];
    reduce_sum(plan_, squares.data(), sums.data());
    broadcast_back(plan_, sums.data(), norms.data(), false, 1.f);
    const float clip_norm = float(attrs_.get_float("clip_norm"));
    float* dx = in_grad(in[0], accum[0]);
    const bool acc = accum[0];
    parallel_for(n, [&](int64_t i) { store_grad(dx, i, clip_norm * dy[i] / std::sqrt(norms[size_t(i)]), acc); });
  }

 private:
  ReducePlan plan_;
};

}  // namespace

void register_clip_grad_by_value(OpRegistry& r) {
  register_cpu<ClipGradByValue>(r, SchemaBuilder("ClipGradByValue", "Normalization")
                                       .doc("identity; backward clips the gradient to [min, max]")
                                       .in("x")
                                       .in("min")
                                       .in("max")
                                       .out("y")
                                       .build());
}
void register_clip_grad_by_norm(OpRegistry& r) {
  register_cpu<ClipGradByNorm>(r, SchemaBuilder("ClipGradByNorm", "Normalization")
                                      .doc("identity; backward rescales the gradient to L2 norm clip_norm")
                                      .in("x")
                                      .arg("clip_norm", AttrType::kFloat, AttrValue(1.0))
                                      .arg("axes", AttrType::kInts, std::nullopt, "all axes")
                                      .out("y")
                                      .build());
}
}  // namespace nn::ops
