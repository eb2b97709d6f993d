// Sum, Mean and Prod over axes: reductions that accumulate every element (nnabla: axes default all, keep_dims
// false).
#include "ops/detail/op_common.hpp"
#include "ops/detail/reduce.hpp"

namespace nn::ops {
namespace {
class ReductionBase : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    plan_ = make_reduce_plan(in[0]->shape(), attrs_);
    out[0]->reshape(plan_.out_shape, true);
  }
  ReducePlan plan_;
};

class Sum : public ReductionBase {
 public:
  using ReductionBase::ReductionBase;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    reduce_sum(plan_, x, y);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    broadcast_back(plan_, out_grad(out[0]), in_grad(in[0], accum[0]), accum[0], 1.f);
  }
};

class Mean : public ReductionBase {
 public:
  using ReductionBase::ReductionBase;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    float* y = out_data(out[0]);
    reduce_sum(plan_, in_data(in[0]), y);
    const float scale = 1.f / float(plan_.reduce_size);
    for (int64_t o = 0; o < plan_.out_size; ++o) y[o] *= scale;
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    broadcast_back(plan_, out_grad(out[0]), in_grad(in[0], accum[0]), accum[0], 1.f / float(plan_.reduce_size));
  }
};

class Prod : public ReductionBase {
 public:
  using ReductionBase::ReductionBase;

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    parallel_for(plan_.out_size, [&](int64_t o) {
      const float* base = x + plan_.out_offsets[o];
      double p = 1.0;
      for (int64_t r = 0; r < plan_.reduce_size; ++r) p *= base[plan_.red_offsets[r]];
      y[o] = float(p);
    });
  }
  // d prod / d x_r = product of the other elements, computed without dividing by x_r (zeros are exact).
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* x = in_data(in[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const bool acc = accum[0];
    parallel_for(plan_.out_size, [&](int64_t o) {
      const float* xb = x + plan_.out_offsets[o];
      float* db = dx + plan_.out_offsets[o];
      double nonzero_prod = 1.0;
      int64_t zeros = 0, zero_at = -1;
      for (int64_t r = 0; r < plan_.reduce_size; ++r) {
        float v = xb[plan_.red_offsets[r]];
        if (v == 0.f) {
          ++zeros;
          zero_at = r;
        } else {
          nonzero_prod *= v;
        }
      }
      for (int64_t r = 0; r < plan_.reduce_size; ++r) {
        float v = xb[plan_.red_offsets[r]];
        double others = zeros == 0 ? nonzero_prod / v : (zeros == 1 && r == zero_at ? nonzero_prod : 0.0);
        float& d = db[plan_.red_offsets[r]];
        float g = float(dy[o] * others);
        d = acc ? d + g : g;
      }
    });
  }
};

OpSchema reduction_schema(const char* name, const char* doc) {
  return SchemaBuilder(name, "Reduction")
      .doc(doc)
      .in("x")
      .arg("axes", AttrType::kInts, std::nullopt, "all axes")
      .arg("keep_dims", AttrType::kBool, AttrValue(false))
      .out("y")
      .build();
}
}  // namespace

void register_sum(OpRegistry& r) { register_cpu<Sum>(r, reduction_schema("Sum", "sum over axes")); }
void register_mean(OpRegistry& r) { register_cpu<Mean>(r, reduction_schema("Mean", "mean over axes")); }
void register_prod(OpRegistry& r) { register_cpu<Prod>(r, reduction_schema("Prod", "product over axes")); }
}  // namespace nn::ops
