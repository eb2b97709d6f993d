// Affine: y = x W + b with x flattened at base_axis; one SGEMM per product.
#include "ops/detail/blas.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/detail/team_mode.hpp"
#include "ops/nn_layer/affine_core.hpp"
#include "ops/nn_layer/conv_core.hpp"

namespace nn::ops {

AffinePlan plan_affine(const std::string& fn, const Shape& x, const Shape& w, const Shape* b, int64_t base_axis) {
  NN_CHECK(base_axis >= 0 && base_axis < int64_t(x.size()))
      << fn << ": base_axis " << base_axis << " out of range for input " << to_string(x);
  NN_CHECK(w.size() >= 2) << fn << ": weight " << to_string(w) << " must be (inputs, outputs...)";
  AffinePlan p;
  p.rows = shape_size(x, 0, size_t(base_axis));
  p.inputs = shape_size(x, size_t(base_axis), x.size());
  p.outputs = shape_size(w, 1, w.size());
  NN_CHECK(w[0] == p.inputs) << fn << ": input " << to_string(x) << " flattened at base_axis " << base_axis
                             << " has " << p.inputs << " features but weight " << to_string(w) << " has " << w[0]
                             << " rows";
  if (b) {
    NN_CHECK(*b == Shape(w.begin() + 1, w.end()))
        << fn << ": bias " << to_string(*b) << " must match the output dims of weight " << to_string(w);
  }
  p.y_shape.assign(x.begin(), x.begin() + base_axis);
  p.y_shape.insert(p.y_shape.end(), w.begin() + 1, w.end());
  return p;
}

void affine_forward(const AffinePlan& p, const float* x, const float* w, const float* b, float* y) {
  sgemm(false, false, p.rows, p.outputs, p.inputs, 1.f, x, p.inputs, w, p.outputs, 0.f, y, p.outputs);
  if (!b) return;
  for (int64_t r = 0; r < p.rows; ++r) {
    float* yr = y + r * p.outputs;
#pragma omp simd
    for (int64_t j = 0; j < p.outputs; ++j) yr[j] += b[j];
  }
}

void affine_backward(const AffinePlan& p, const float* x, const float* w, const float* dy, float* dx, bool accum_x,
                     float* dw, bool accum_w, float* db, bool accum_b) {
  if (dx)
    sgemm(false, true, p.rows, p.inputs, p.outputs, 1.f, dy, p.outputs, w, p.outputs, accum_x ? 1.f : 0.f, dx,
          p.inputs);
  if (dw)
    sgemm(true, false, p.inputs, p.outputs, p.rows, 1.f, x, p.inputs, dy, p.outputs, accum_w ? 1.f : 0.f, dw,
          p.outputs);
  if (db) {
    if (!accum_b) std::fill(db, db + p.outputs, 0.f);
    for (int64_t r = 0; r < p.rows; ++r) {
      const float* g = dy + r * p.outputs;
#pragma omp simd
      for (int64_t j = 0; j < p.outputs; ++j) db[j] += g[j];
    }
  }
}

namespace {
class Affine : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int i, int j) const override { return (i == 0 && j == 1) || (i == 1 && j == 0); }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    Shape b;
    if (in.size() > 2) b = in[2]->shape();
    plan_ = plan_affine("Affine", in[0]->shape(), in[1]->shape(), in.size() > 2 ? &b : nullptr,
                        attrs_.get_int("base_axis"));
    out[0]->reshape(plan_.y_shape, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    // One thread or the team as TeamMode chooses, when the product can split (a transformer's layers: no
    // convolution makes that choice for it).
    const bool splits = !blas_product_on_one_thread(false, false, plan_.rows, plan_.outputs, plan_.inputs);
    const double flops = 2.0 * double(plan_.rows) * double(plan_.outputs) * double(plan_.inputs);
    run_in_team_mode(splits ? flops : 0.0, [&](int threads) {
      ThreadScope scope(threads);
      affine_forward(plan_, in_data(in[0]), in_data(in[1]), in.size() > 2 ? in_data(in[2]) : nullptr,
                     out_data(out[0]));
    });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const bool has_b = in.size() > 2;
    affine_backward(plan_, prop[1] ? in_data(in[0]) : nullptr, prop[0] ? in_data(in[1]) : nullptr,
                    out_grad(out[0]), prop[0] ? in_grad(in[0], accum[0]) : nullptr, accum[0],
                    prop[1] ? in_grad(in[1], accum[1]) : nullptr, accum[1],
                    has_b && prop[2] ? in_grad(in[2], accum[2]) : nullptr, has_b && accum[2]);
  }

 private:
  AffinePlan plan_;
};
}  // namespace

void register_affine(OpRegistry& r) {
  register_cpu<Affine>(r,
                       SchemaBuilder("Affine", "Neural Network Layer")
                           .doc("y = x W + b, x flattened to (prod(shape[:base_axis]), prod(shape[base_axis:]))")
                           .in("x")
                           .in_param("weight")
                           .in_optional("bias", true)
                           .arg("base_axis", AttrType::kInt, AttrValue(int64_t(1)))
                           .out("y")
                           .build());
}

}  // namespace nn::ops
