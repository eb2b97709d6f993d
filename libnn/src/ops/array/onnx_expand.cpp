// ONNXExpand: ONNX's Expand with the shape read from a tensor when it runs (numpy broadcasting of x and that
// shape). Inference only.
#include "ops/array/shape_input.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class ONNXExpand : public Function {
 public:
  using Function::Function;
  bool output_size_follows_data() const override { return true; }
  bool has_backward() const override { return false; }

 protected:
  // The broadcast of x's shape and the given one; at setup (not `checked`) x's own shape when they do not fit.
  Shape target(const Variables& in, bool checked) const {
    const Shape given = shape_values(in[1], "ONNXExpand", checked);
    const Shape& xs = in[0]->shape();
    Shape s(std::max(given.size(), xs.size()), 1);
    bool fits = true;
    for (size_t k = 0; k < s.size(); ++k) {
      const int64_t a = k < xs.size() ? xs[xs.size() - 1 - k] : 1,
                    b = k < given.size() ? given[given.size() - 1 - k] : 1;
      fits = fits && (a == b || a == 1 || b == 1);
      s[s.size() - 1 - k] = a == 1 ? b : a;
    }
    NN_CHECK(fits || !checked) << "ONNXExpand: " << to_string(xs) << " does not broadcast to " << to_string(given);
    return fits ? s : xs;
  }
  void setup_impl(const Variables& in, const Variables& out) override { out[0]->reshape(target(in, false), true); }
  void forward_impl(const Variables& in, const Variables& out) override {
    const Shape s = target(in, true);
    check_shaped_size(s, "ONNXExpand");
    out[0]->reshape(s, true);
    const Shape& xs = in[0]->shape();
    const size_t lead = s.size() - xs.size();
    std::vector<int64_t> stride(s.size(), 0);  // x's stride per output axis (0 where it broadcasts)
    for (int64_t d = int64_t(xs.size()) - 1, st = 1; d >= 0; st *= xs[size_t(d)], --d)
      stride[lead + size_t(d)] = xs[size_t(d)] == 1 ? 0 : st;
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const int64_t total = shape_size(s);
    for (int64_t o = 0; o < total; ++o) {
      int64_t offset = 0, rest = o;
      for (size_t d = s.size(); d-- > 0;) {
        offset += (rest % s[d]) * stride[d];
        rest /= s[d];
      }
      y[o] = x[offset];
    }
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

}  // namespace

void register_onnx_expand(OpRegistry& r) {
  register_cpu<ONNXExpand>(r, SchemaBuilder("ONNXExpand", "Unsupported, Special Use")
                                  .doc("x broadcast with the shape a 1-D input holds (inference only)")
                                  .in("x")
                                  .in("shape")
                                  .out("y")
                                  .build());
}
}  // namespace nn::ops
