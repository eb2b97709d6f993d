// CReLU and CELU: f(x) and f(-x) concatenated along `axis` (ReLU and ELU respectively).
#include <cmath>

#include "ops/activation/axis_split.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/detail/unary_params.hpp"

namespace nn::ops {
namespace {
struct ReluPart {
  explicit ReluPart(const Attrs&) {}
  float f(float x) const { return x > 0.f ? x : 0.f; }
  float df(float x) const { return x > 0.f ? 1.f : 0.f; }
};
struct EluPart {
  float alpha;
  explicit EluPart(const Attrs& a) : alpha(AlphaParams(a).alpha) {}
  float f(float x) const { return x >= 0.f ? x : alpha * std::expm1(x); }
  float df(float x) const { return x >= 0.f ? 1.f : alpha * std::exp(x); }
};

template <class Part>
class ConcatActivation : public Function {
 public:
  ConcatActivation(const OpSchema& s, const Context& c, const Attrs& a) : Function(s, c, a), part_(attrs_) {}

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    Shape s = in[0]->shape();
    NN_CHECK(!s.empty()) << type() << ": input must have at least one dimension";
    int axis = axis_argument(attrs_, s);
    split_ = split_at_axis(s, axis);
    s[size_t(axis)] *= 2;
    out[0]->reshape(s, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const int64_t block = split_.size * split_.inner;  // one outer slice of x
    const Part p = part_;
    parallel_for(split_.outer, [&](int64_t o) {
      const float* xo = x + o * block;
      float* pos = y + 2 * o * block;
      float* neg = pos + block;
      for (int64_t i = 0; i < block; ++i) {
        pos[i] = p.f(xo[i]);
        neg[i] = p.f(-xo[i]);
      }
    });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* x = in_data(in[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const bool acc = accum[0];
    const int64_t block = split_.size * split_.inner;
    const Part p = part_;
    parallel_for(split_.outer, [&](int64_t o) {
      const float* xo = x + o * block;
      const float* dpos = dy + 2 * o * block;
      const float* dneg = dpos + block;
      float* dxo = dx + o * block;
      for (int64_t i = 0; i < block; ++i) {
        float g = dpos[i] * p.df(xo[i]) - dneg[i] * p.df(-xo[i]);
        dxo[i] = acc ? dxo[i] + g : g;
      }
    });
  }

 private:
  Part part_;
  AxisSplit split_;
};
}  // namespace

void register_crelu(OpRegistry& r) {
  register_cpu<ConcatActivation<ReluPart>>(r, SchemaBuilder("CReLU", "Neural Network Activation Functions")
                                                  .doc("concatenate(relu(x), relu(-x)) along axis")
                                                  .in("x")
                                                  .arg("axis", AttrType::kInt, AttrValue(int64_t(1)))
                                                  .out("y")
                                                  .build());
}
void register_celu(OpRegistry& r) {
  register_cpu<ConcatActivation<EluPart>>(r, SchemaBuilder("CELU", "Neural Network Activation Functions")
                                                 .doc("concatenate(elu(x), elu(-x)) along axis")
                                                 .in("x")
                                                 .arg("alpha", AttrType::kDouble, AttrValue(1.0))
                                                 .arg("axis", AttrType::kInt, AttrValue(int64_t(1)))
                                                 .out("y")
                                                 .build());
}
}  // namespace nn::ops
