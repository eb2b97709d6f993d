// VATNoise: eps * x / ||x|| per sample (virtual adversarial training); its backward stores eps * dy into the
// data of the buffer input w instead of producing a gradient.
#include <cmath>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class VATNoise : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const int64_t base_axis = attrs_.get_int("base_axis");
    NN_CHECK(base_axis > 0 && base_axis < int64_t(xs.size()))
        << "VATNoise: base_axis " << base_axis << " must be in [1, " << xs.size() << ") for x " << to_string(xs);
    NN_CHECK(xs == in[1]->shape()) << "VATNoise: x " << to_string(xs) << " and w " << to_string(in[1]->shape())
                                   << " must have the same shape";
    row_ = 1;
    for (size_t d = size_t(base_axis); d < xs.size(); ++d) row_ *= xs[d];
    out[0]->reshape(xs, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const double eps = attrs_.get_float("eps");
    const int64_t rows = row_ == 0 ? 0 : in[0]->size() / row_;
    for (int64_t r = 0; r < rows; ++r) {
      double sum = 1e-8;
      for (int64_t k = 0; k < row_; ++k) sum += double(x[r * row_ + k]) * x[r * row_ + k];
      const double scale = eps / std::sqrt(sum);
      for (int64_t k = 0; k < row_; ++k) y[r * row_ + k] = float(scale * x[r * row_ + k]);
    }
  }
  // As upstream: no gradient for x; w's data receives eps * dy (accum and propagate_down do not apply).
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>&,
                     const std::vector<bool>&) override {
    const float* dy = out_grad(out[0]);
    float* w = in[1]->data()->cast<float>(true);
    const float eps = float(attrs_.get_float("eps"));
    for (int64_t i = 0; i < in[0]->size(); ++i) w[i] = dy[i] * eps;
  }

 private:
  int64_t row_ = 1;
};

}  // namespace

void register_vat_noise(OpRegistry& r) {
  register_cpu<VATNoise>(r, SchemaBuilder("VATNoise", "Unsupported, Special Use")
                                .doc("normalised noise for virtual adversarial training")
                                .in("x")
                                .in("w")
                                .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
                                .arg("eps", AttrType::kFloat, AttrValue(1.0))
                                .out("y")
                                .build());
}

}  // namespace nn::ops
