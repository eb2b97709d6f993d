// ONNXReshape: ONNX's Reshape with the shape read from a tensor when it runs (0 keeps the input's dim unless
// allowzero, -1 takes the rest). Inference only.
#include <algorithm>

#include "ops/array/shape_input.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class ONNXReshape : public Function {
 public:
  using Function::Function;
  bool output_size_follows_data() const override { return true; }
  bool has_backward() const override { return false; }

 protected:
  // The target shape; at setup (not `checked`) one that does not fit stand-in values is the input flattened.
  Shape target(const Variables& in, bool checked) const {
    Shape s = shape_values(in[1], "ONNXReshape", checked, -1);
    const Shape& xs = in[0]->shape();
    int64_t known = 1, infer = -1;
    bool fits = true;
    for (size_t d = 0; d < s.size(); ++d) {
      if (s[d] == 0 && !attrs_.get_bool("allowzero")) {
        fits = fits && d < xs.size();
        s[d] = d < xs.size() ? xs[d] : 0;
      }
      if (s[d] == -1) {
        fits = fits && infer < 0;
        infer = int64_t(d);
      } else {
        known *= s[d];
      }
    }
    if (infer >= 0) {
      fits = fits && known > 0 && in[0]->size() % known == 0;
      s[size_t(infer)] = known > 0 ? in[0]->size() / known : 0;
    }
    fits = fits && shape_size(s) == in[0]->size();
    NN_CHECK(fits || !checked) << "ONNXReshape: cannot reshape " << to_string(xs) << " to the shape given";
    return fits ? s : Shape{in[0]->size()};
  }
  void setup_impl(const Variables& in, const Variables& out) override { out[0]->reshape(target(in, false), true); }
  void forward_impl(const Variables& in, const Variables& out) override {
    out[0]->reshape(target(in, true), true);
    const float* x = in_data(in[0]);
    std::copy(x, x + in[0]->size(), out_data(out[0]));
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

}  // namespace

void register_onnx_reshape(OpRegistry& r) {
  register_cpu<ONNXReshape>(r, SchemaBuilder("ONNXReshape", "Unsupported, Special Use")
                                   .doc("x in the shape a 1-D input holds (inference only)")
                                   .in("x")
                                   .in("shape")
                                   .arg("allowzero", AttrType::kBool, false)
                                   .out("y")
                                   .build());
}
}  // namespace nn::ops
