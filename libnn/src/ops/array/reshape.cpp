// Reshape: same data, new shape (one dim may be -1).
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {
class Reshape : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    Shape s = attrs_.get_ints("shape", {});
    int64_t known = 1, infer = -1;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] < 0) {
        NN_CHECK(infer < 0) << "Reshape: more than one -1 in shape " << to_string(s);
        infer = int64_t(i);
      } else {
        known *= s[i];
      }
    }
    if (infer >= 0) {
      NN_CHECK(known > 0 && in[0]->size() % known == 0)
          << "Reshape: cannot infer -1 in " << to_string(s) << " from " << to_string(in[0]->shape());
      s[infer] = in[0]->size() / known;
    }
    NN_CHECK(shape_size(s) == in[0]->size())
        << "Reshape: input " << to_string(in[0]->shape()) << " has " << in[0]->size() << " elements, shape "
        << to_string(s) << " has " << shape_size(s);
    out[0]->reshape(s, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    std::copy(x, x + in[0]->size(), y);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const int64_t n = in[0]->size();
    if (accum[0]) {
      for (int64_t i = 0; i < n; ++i) dx[i] += dy[i];
    } else {
      std::copy(dy, dy + n, dx);
    }
  }
};
}  // namespace

void register_reshape(OpRegistry& r) {
  register_cpu<Reshape>(r,
                        SchemaBuilder("Reshape", "Array Manipulation")
                            .doc("same data with a new shape")
                            .in("x")
                            .arg("shape", AttrType::kShape)
                            .arg("inplace", AttrType::kBool, AttrValue(true))
                            .out("y")
                            .grad([](const GradGraphArgs& g) {
                              return std::vector<VariablePtr>{F::reshape(g.grad_outputs[0], g.inputs[0]->shape())};
                            })
                            .build());
}
}  // namespace nn::ops
