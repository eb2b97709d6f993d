// Unlink and Sink: graph-control functions (Unlink stops gradients, Sink joins several outputs into one root).
#include <algorithm>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// Forward identity that stops gradients: the backward leaves the input grad untouched.
class Unlink : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override { out[0]->reshape(in[0]->shape(), true); }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    std::copy(x, x + in[0]->size(), y);
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

// Joins several outputs into one (scalar) root; with one_input_grad its backward seeds every input grad
// with 1.
class Sink : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables&, const Variables& out) override { out[0]->reshape({}, true); }
  void forward_impl(const Variables&, const Variables& out) override { out_data(out[0])[0] = 0.f; }
  // Upstream fills the grads of all inputs with 1 regardless of accum; here only where propagate_down.
  void backward_impl(const Variables& in, const Variables&, const std::vector<bool>& prop,
                     const std::vector<bool>&) override {
    if (!attrs_.get_bool("one_input_grad")) return;
    for (size_t i = 0; i < in.size(); ++i)
      if (prop[i]) in[i]->grad()->fill(1.0);
  }
};

}  // namespace

void register_unlink(OpRegistry& r) {
  register_cpu<Unlink>(r, SchemaBuilder("Unlink", "Unsupported, Special Use")
                              .doc("identity that stops gradients")
                              .in("x")
                              .out("y")
                              .build());
}
void register_sink(OpRegistry& r) {
  register_cpu<Sink>(r, SchemaBuilder("Sink", "Unsupported, Special Use")
                            .doc("dummy root joining several outputs")
                            .in_variadic("x")
                            .arg("one_input_grad", AttrType::kBool, AttrValue(true))
                            .out("y")
                            .build());
}

}  // namespace nn::ops
