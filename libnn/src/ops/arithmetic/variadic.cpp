// AddN and MulN: the elementwise sum / product of any number of same-shape inputs.
#include <vector>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

void check_same_shapes(const char* fname, const Variables& in) {
  NN_CHECK(!in.empty()) << fname << ": needs at least one input";
  for (size_t i = 1; i < in.size(); ++i)
    NN_CHECK(in[i]->shape() == in[0]->shape())
        << fname << ": input " << i << " shape " << to_string(in[i]->shape()) << " differs from input 0 shape "
        << to_string(in[0]->shape());
}

// y[i] = op(...op(op(init, x_0[i]), x_1[i])..., x_{n-1}[i]) over same-shaped inputs.
template <class Op>
void fold_inputs(const Variables& in, Variable* y_var, float init, Op op) {
  float* y = out_data(y_var);
  std::vector<const float*> xs;
  for (auto* v : in) xs.push_back(in_data(v));
  parallel_for(y_var->size(), [&](int64_t i) {
    float acc = init;
    for (const float* x : xs) acc = op(acc, x[i]);
    y[i] = acc;
  });
}

// y = x_0 + x_1 + ... + x_{n-1}.
class AddN : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    check_same_shapes("AddN", in);
    out[0]->reshape(in[0]->shape(), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    fold_inputs(in, out[0], 0.f, [](float a, float b) { return a + b; });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* dy = out_grad(out[0]);
    const int64_t n = out[0]->size();
    for (size_t k = 0; k < in.size(); ++k) {
      if (!prop[k]) continue;
      float* dx = in_grad(in[k], accum[k]);
      const bool acc = accum[k];
      parallel_for(n, [&](int64_t i) { store_grad(dx, i, dy[i], acc); });
    }
  }
};

// y = x_0 * x_1 * ... * x_{n-1}; dx_k = dy * prod_{j != k} x_j (computed without division).
class MulN : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    check_same_shapes("MulN", in);
    out[0]->reshape(in[0]->shape(), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    fold_inputs(in, out[0], 1.f, [](float a, float b) { return a * b; });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* dy = out_grad(out[0]);
    const int64_t n = out[0]->size();
    std::vector<const float*> xs;
    for (auto* v : in) xs.push_back(in_data(v));
    for (size_t k = 0; k < in.size(); ++k) {
      if (!prop[k]) continue;
      float* dx = in_grad(in[k], accum[k]);
      const bool acc = accum[k];
      parallel_for(n, [&](int64_t i) {
        float p = dy[i];
        for (size_t j = 0; j < xs.size(); ++j)
          if (j != k) p *= xs[j][i];
        store_grad(dx, i, p, acc);
      });
    }
  }
};

}  // namespace

void register_add_n(OpRegistry& r) {
  register_cpu<AddN>(r, SchemaBuilder("AddN", "Arithmetic")
                            .doc("y = sum of all inputs (same shapes)")
                            .in_variadic("x")
                            .out("y")
                            .grad([](const GradGraphArgs& g) {
                              return std::vector<VariablePtr>(g.inputs.size(), g.grad_outputs[0]);
                            })
                            .build());
}
void register_mul_n(OpRegistry& r) {
  register_cpu<MulN>(r, SchemaBuilder("MulN", "Arithmetic")
                            .doc("y = product of all inputs (same shapes)")
                            .in_variadic("x")
                            .out("y")
                            .build());
}
}  // namespace nn::ops
