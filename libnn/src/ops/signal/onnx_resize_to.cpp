// ONNXResizeTo: ONNX's Resize to sizes read from a tensor when it runs (its output size follows the values): an
// ONNXResize made for each new set of sizes. Inference only.
#include "ops/array/shape_input.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/signal/onnx_resize_modes.hpp"

namespace nn::ops {
namespace {

class ONNXResizeTo : public Function {
 public:
  using Function::Function;
  bool output_size_follows_data() const override { return true; }
  bool has_backward() const override { return false; }

 protected:
  // The ONNXResize for these sizes and input shape (made again when either changed). At setup (not `checked`),
  // sizes that are stand-ins and no valid size keep the input's shape.
  Function& resize(const Variables& in, const Variables& out, bool checked) {
    Shape sizes = shape_values(in[1], "ONNXResizeTo", checked);
    bool fits = sizes.size() == size_t(in[0]->ndim());
    for (int64_t d : sizes) fits = fits && d > 0;
    NN_CHECK(fits || !checked) << "ONNXResizeTo: sizes " << to_string(sizes) << " do not fit input "
                               << to_string(in[0]->shape());
    if (!fits) sizes = in[0]->shape();
    if (checked) check_shaped_size(sizes, "ONNXResizeTo");
    if (!inner_ || sizes != sizes_ || in[0]->shape() != inner_->setup_input_shapes().at(0)) {
      Attrs attrs = attrs_;
      attrs.set("sizes", std::vector<int64_t>(sizes));
      inner_ = OpRegistry::instance().create("ONNXResize", attrs, ctx_);
      sizes_ = sizes;
      inner_->setup({in[0]}, {out[0]});
    }
    return *inner_;
  }
  void setup_impl(const Variables& in, const Variables& out) override { resize(in, out, false); }
  void forward_impl(const Variables& in, const Variables& out) override {
    Function& f = resize(in, out, true);
    out[0]->reshape(sizes_, true);
    f.forward({in[0]}, {out[0]});
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

  FunctionPtr inner_;
  Shape sizes_;
};

}  // namespace

void register_onnx_resize_to(OpRegistry& r) {
  register_cpu<ONNXResizeTo>(
      r,
      with_resize_modes(SchemaBuilder("ONNXResizeTo", "Unsupported, Special Use")
                            .doc("ONNX Resize to the sizes a 1-D input holds (ONNXResize's modes; inference only)")
                            .in("x")
                            .in("sizes")
                            .arg("roi", AttrType::kFloats, AttrValue(std::vector<double>{})))
          .out("y")
          .build());
}
}  // namespace nn::ops
