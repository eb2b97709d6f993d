// KLMultinomial: sum over axes >= base_axis of p (log p - log q); output shape x.shape[:base_axis] + (1,).
#include <cmath>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {
constexpr float kLogEps = 1e-8f;  // upstream adds this inside both logs

class KLMultinomial : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& ps = in[0]->shape();
    NN_CHECK(ps == in[1]->shape()) << "KLMultinomial: p shape " << to_string(ps) << " and q shape "
                                   << to_string(in[1]->shape()) << " must match";
    const int64_t base_axis = attrs_.get_int("base_axis");
    NN_CHECK(base_axis >= 1 && base_axis < int64_t(ps.size()))
        << "KLMultinomial: base_axis " << base_axis << " must lie in [1, " << ps.size() << ") for shape "
        << to_string(ps);
    Shape os(ps.begin(), ps.begin() + base_axis);
    os.push_back(1);
    rows_ = shape_size(ps, 0, size_t(base_axis));
    cols_ = shape_size(ps, size_t(base_axis), ps.size());
    out[0]->reshape(os, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* p = in_data(in[0]);
    const float* q = in_data(in[1]);
    float* y = out_data(out[0]);
    const int64_t k = cols_;
    parallel_for(rows_, [&](int64_t i) {
      float s = 0.f;
      for (int64_t j = 0; j < k; ++j)
        s += p[i * k + j] * (std::log(p[i * k + j] + kLogEps) - std::log(q[i * k + j] + kLogEps));
      y[i] = s;
    });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* p = in_data(in[0]);
    const float* q = in_data(in[1]);
    const float* dy = out_grad(out[0]);
    const int64_t k = cols_;
    if (prop[0]) {
      float* dp = in_grad(in[0], accum[0]);
      const bool acc = accum[0];
      parallel_for(rows_ * k, [&](int64_t i) {
        store_grad(dp, i, dy[i / k] * (std::log(p[i] + kLogEps) - std::log(q[i] + kLogEps) + 1.f), acc);
      });
    }
    if (prop[1]) {
      float* dq = in_grad(in[1], accum[1]);
      const bool acc = accum[1];
      parallel_for(rows_ * k, [&](int64_t i) { store_grad(dq, i, -dy[i / k] * p[i] / q[i], acc); });
    }
  }

 private:
  int64_t rows_ = 1, cols_ = 1;
};
}  // namespace

void register_kl_multinomial(OpRegistry& r) {
  register_cpu<KLMultinomial>(r, SchemaBuilder("KLMultinomial", "Loss Functions")
                                     .doc("sum(p * (log p - log q)) over axes from base_axis")
                                     .in("p")
                                     .in("q")
                                     .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
                                     .out("D")
                                     .build());
}
}  // namespace nn::ops
