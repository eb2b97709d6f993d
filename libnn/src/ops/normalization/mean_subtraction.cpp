// MeanSubtraction: y = x - running mean; in training the running mean (and count t) is updated in place.
#include <climits>
#include <cmath>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// Inputs: x, rmean (shape of x after base_axis), t (one element: the update count; optional when
// update_running_mean is false). The backward of the training mode is upstream's diagonal
// approximation dx = dy * (1 - 1 / (t * batch)), not the exact Jacobian.
class MeanSubtraction : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int j) const override { return j == 2; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    update_ = attrs_.get_bool("update_running_mean");
    NN_CHECK(in.size() == 3 || (in.size() == 2 && !update_))
        << "MeanSubtraction: inputs must be x, rmean, t (t optional only without update_running_mean), got "
        << in.size();
    const Shape& xs = in[0]->shape();
    const int64_t base_axis = attrs_.get_int("base_axis");
    NN_CHECK(base_axis >= 0 && base_axis < int64_t(xs.size()))
        << "MeanSubtraction: base_axis " << base_axis << " is out of range for x " << to_string(xs);
    const Shape ms(xs.begin() + base_axis, xs.end());
    NN_CHECK(in[1]->shape() == ms) << "MeanSubtraction: rmean has shape " << to_string(in[1]->shape())
                                   << ", expected " << to_string(ms) << " for x " << to_string(xs);
    if (in.size() == 3) {
      NN_CHECK(in[2]->size() == 1) << "MeanSubtraction: t must have one element, got shape "
                                   << to_string(in[2]->shape());
    }
    features_ = shape_size(ms);
    batch_ = features_ ? in[0]->size() / features_ : 0;
    out[0]->reshape(xs, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    if (update_) {
      float* rm = in[1]->data()->cast<float>();
      float* t = in[2]->data()->cast<float>();
      const int64_t count = std::llround(t[0]);
      const double coef = 1.0 / double(count + 1);
      for (int64_t f = 0; f < features_; ++f) {
        double sum = 0;
        for (int64_t b = 0; b < batch_; ++b) sum += x[b * features_ + f];
        const double mean = batch_ ? sum / double(batch_) : 0.0;
        rm[f] = float(rm[f] + (mean - rm[f]) * coef);
      }
      t[0] = float(std::min<int64_t>(count + 1, INT_MAX));
    }
    const float* rm = in_data(in[1]);
    for (int64_t b = 0; b < batch_; ++b)
      for (int64_t f = 0; f < features_; ++f) y[b * features_ + f] = x[b * features_ + f] - rm[f];
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    float factor = 1.f;
    if (update_) factor = 1.f - float(1.0 / (double(std::llround(in_data(in[2])[0])) * double(batch_)));
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    for (int64_t i = 0; i < in[0]->size(); ++i) store_grad(dx, i, dy[i] * factor, accum[0]);
  }

 private:
  bool update_ = true;
  int64_t features_ = 1, batch_ = 1;
};

}  // namespace

void register_mean_subtraction(OpRegistry& r) {
  register_cpu<MeanSubtraction>(r, SchemaBuilder("MeanSubtraction", "Normalization")
                                       .doc("subtracts the running mean (updated in training)")
                                       .in("x")
                                       .in_param("rmean")
                                       .in_optional("t", true)
                                       .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
                                       .arg("update_running_mean", AttrType::kBool, AttrValue(true))
                                       .out("y")
                                       .build());
}

}  // namespace nn::ops
