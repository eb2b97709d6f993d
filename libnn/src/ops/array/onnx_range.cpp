// ONNXRange: ONNX's Range with start, limit and delta read from tensors when it runs (its length follows their
// values). Inference only.
#include <cmath>

#include "ops/array/shape_input.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class ONNXRange : public Function {
 public:
  using Function::Function;
  bool output_size_follows_data() const override { return true; }
  bool has_backward() const override { return false; }

 protected:
  // max(ceil((limit - start) / delta), 0) values; at setup (not `checked`) stand-in values that give none
  // (delta 0, a count past the limit) give an empty range.
  int64_t count(const Variables& in, bool checked) const {
    for (size_t i = 0; i < 3; ++i)
      NN_CHECK(in[i]->size() == 1) << "ONNXRange: input " << i << " must hold one value";
    const double start = in_data(in[0])[0], limit = in_data(in[1])[0], delta = in_data(in[2])[0];
    const double n = std::max(std::ceil((limit - start) / delta), 0.0);
    const bool ok = delta != 0 && std::isfinite(n) && n <= double(kMaxShapedElements);
    NN_CHECK(ok || !checked) << "ONNXRange: start " << start << ", limit " << limit << " and delta " << delta
                             << " do not give at most " << kMaxShapedElements << " values";
    return ok ? int64_t(n) : 0;
  }
  void setup_impl(const Variables& in, const Variables& out) override { out[0]->reshape({count(in, false)}, true); }
  void forward_impl(const Variables& in, const Variables& out) override {
    const int64_t n = count(in, true);
    out[0]->reshape({n}, true);
    const double start = in_data(in[0])[0], delta = in_data(in[2])[0];
    float* y = out_data(out[0]);
    for (int64_t i = 0; i < n; ++i) y[i] = float(start + double(i) * delta);
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

}  // namespace

void register_onnx_range(OpRegistry& r) {
  register_cpu<ONNXRange>(r, SchemaBuilder("ONNXRange", "Unsupported, Special Use")
                                 .doc("start, start + delta, ... below limit, read at run time (inference only)")
                                 .in("start")
                                 .in("limit")
                                 .in("delta")
                                 .out("y")
                                 .build());
}
}  // namespace nn::ops
