// ONNXConstantOfShape: ONNX's ConstantOfShape with the shape read from a tensor when it runs (its output size
// follows the values). Inference only.
#include <algorithm>

#include "ops/array/shape_input.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class ONNXConstantOfShape : public Function {
 public:
  using Function::Function;
  bool output_size_follows_data() const override { return true; }
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    out[0]->reshape(shape_values(in[0], "ONNXConstantOfShape", false), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const Shape s = shape_values(in[0], "ONNXConstantOfShape", true);
    check_shaped_size(s, "ONNXConstantOfShape");
    out[0]->reshape(s, true);
    float* y = out_data(out[0]);
    std::fill(y, y + out[0]->size(), float(attrs_.get_float("value")));
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

}  // namespace

void register_onnx_constant_of_shape(OpRegistry& r) {
  register_cpu<ONNXConstantOfShape>(
      r, SchemaBuilder("ONNXConstantOfShape", "Unsupported, Special Use")
             .doc("a tensor of the shape a 1-D input holds, filled with value (inference only)")
             .in("shape")
             .arg("value", AttrType::kDouble, 0.0)
             .out("y")
             .build());
}
}  // namespace nn::ops
