// Dropout (training form): y = x * mask / (1 - p), mask ~ Bernoulli(1 - p); backward uses the same mask.
#include <random>

#include "nn/core/random.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/stochastic/dropout_args.hpp"

namespace nn::ops {
namespace {

class Dropout : public Function {
 public:
  Dropout(const OpSchema& s, const Context& c, const Attrs& a)
      : Function(s, c, a), args_(attrs_), random_(args_.seed) {}
  bool is_stochastic() const override { return true; }
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(args_.p > 0.0 && args_.p < 1.0) << "Dropout: p must be in (0, 1), got " << args_.p;
    out[0]->reshape(in[0]->shape(), true);
    mask_.clear();  // sized by forward: a setup alone (a GPU kernel's checks) allocates nothing
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const float scale = float(1.0 / (1.0 - args_.p));
    std::bernoulli_distribution keep(1.0 - args_.p);
    auto& engine = random_.engine();
    mask_.resize(size_t(in[0]->size()));
    for (size_t i = 0; i < mask_.size(); ++i) {
      mask_[i] = keep(engine) ? scale : 0.f;
      y[i] = x[i] * mask_[i];
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    if (mask_.empty()) mask_.assign(size_t(in[0]->size()), 0.f);  // no forward since setup: nothing kept
    for (size_t i = 0; i < mask_.size(); ++i) store_grad(dx, int64_t(i), dy[i] * mask_[i], accum[0]);
  }

 private:
  DropoutArgs args_;
  SeededRandom random_;
  std::vector<float> mask_;  // 0 or 1 / (1 - p) per element, from the last forward
};

}  // namespace

void register_dropout(OpRegistry& r) {
  register_cpu<Dropout>(r, SchemaBuilder("Dropout", "Stochasticity")
                               .doc("zeroes elements with probability p and scales the rest by 1 / (1 - p)")
                               .in("x")
                               .arg("p", AttrType::kDouble, AttrValue(0.5))
                               .arg("seed", AttrType::kInt, AttrValue(int64_t(-1)))
                               .out("y")
                               .build());
}

}  // namespace nn::ops
