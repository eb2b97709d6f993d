// EyeLike: a 2-D array shaped like x with ones on the k-th diagonal; not differentiable.
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// Ones on the k-th diagonal of a 2-D array shaped like x.
class EyeLike : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(in[0]->ndim() == 2) << "EyeLike: input must be 2-D, got " << to_string(in[0]->shape());
    out[0]->reshape(in[0]->shape(), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const int64_t rows = in[0]->shape()[0], cols = in[0]->shape()[1], k = attrs_.get_int("k");
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) y[i * cols + j] = j - i == k ? 1.f : 0.f;
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

}  // namespace

void register_eye_like(OpRegistry& r) {
  register_cpu<EyeLike>(r, SchemaBuilder("EyeLike", "Array Manipulation")
                               .doc("2-D array with ones on the k-th diagonal")
                               .in("x")
                               .arg("k", AttrType::kInt, AttrValue(int64_t(0)))
                               .out("y")
                               .build());
}

}  // namespace nn::ops
