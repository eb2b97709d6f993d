// ONNXSlice: ONNX's Slice with starts, ends and steps read from tensors when it runs (its output size follows
// their values). Inference only.
#include <algorithm>
#include <cmath>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

struct AxisRange {
  int64_t start = 0, step = 1, count = 0;
};

// ONNX's rule for one axis of length `dim`: negative positions count from the end, then clamp (to [0, dim] going
// forwards, to [-1, dim - 1] going backwards). A step of 0 is refused when it runs; at setup (`checked` false) the
// values may be stand-ins (a graph built before its inputs are given): it then keeps nothing.
AxisRange axis_range(double start, double end, double step, int64_t dim, bool checked) {
  const bool valid = step != 0 && std::isfinite(step);
  NN_CHECK(valid || !checked) << "ONNXSlice: step must be a non-zero number, got " << step;
  if (!valid) return {0, 1, 0};
  const auto as_int = [](double v) { return int64_t(std::clamp(v, -4.0e18, 4.0e18)); };
  int64_t s = as_int(start), e = as_int(end);
  const int64_t st = as_int(step);
  if (s < 0) s += dim;
  if (e < 0) e += dim;
  AxisRange r;
  r.step = st;
  if (st > 0) {
    s = std::clamp<int64_t>(s, 0, dim);
    e = std::clamp<int64_t>(e, 0, dim);
    r.count = e > s ? (e - s + st - 1) / st : 0;
  } else {
    s = std::clamp<int64_t>(s, 0, dim - 1);
    e = std::clamp<int64_t>(e, -1, dim - 1);
    r.count = s > e ? (s - e - st - 1) / -st : 0;
  }
  r.start = s;
  return r;
}

// Inputs x, starts, ends, steps (1-D, one entry per axis of `axes`).
class ONNXSlice : public Function {
 public:
  using Function::Function;
  bool output_size_follows_data() const override { return true; }
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const size_t n = attrs_.get_ints("axes").size();
    for (size_t i = 1; i < 4; ++i)
      NN_CHECK(in[i]->size() == int64_t(n))
          << "ONNXSlice: input " << i << " has " << in[i]->size() << " values for " << n << " axes";
    out[0]->reshape(ranges(in, false).first, true);
  }

  // The output shape and every axis's range (axes not sliced keep their whole length).
  std::pair<Shape, std::vector<AxisRange>> ranges(const Variables& in, bool checked) const {
    const Shape& xs = in[0]->shape();
    const int64_t rank = int64_t(xs.size());
    std::vector<AxisRange> r(xs.size());
    for (size_t d = 0; d < xs.size(); ++d) r[d] = {0, 1, xs[d]};
    const std::vector<int64_t> axes = attrs_.get_ints("axes");
    const float *starts = in_data(in[1]), *ends = in_data(in[2]), *steps = in_data(in[3]);
    std::vector<bool> seen(xs.size());
    for (size_t i = 0; i < axes.size(); ++i) {
      const int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
      NN_CHECK(a >= 0 && a < rank && !seen[size_t(a)])
          << "ONNXSlice: axis " << axes[i] << " is out of range for rank " << rank << " or repeated";
      seen[size_t(a)] = true;
      r[size_t(a)] = axis_range(starts[i], ends[i], steps[i], xs[size_t(a)], checked);
    }
    Shape shape;
    for (const auto& ar : r) shape.push_back(ar.count);
    return {shape, r};
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const auto [shape, r] = ranges(in, true);
    out[0]->reshape(shape, true);
    const Shape& xs = in[0]->shape();
    std::vector<int64_t> stride(xs.size(), 1);
    for (size_t d = xs.size(); d-- > 1;) stride[d - 1] = stride[d] * xs[d];
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const int64_t total = shape_size(shape);
    for (int64_t o = 0; o < total; ++o) {
      int64_t offset = 0;
      for (size_t d = shape.size(), rest = size_t(o); d-- > 0;) {
        const int64_t i = int64_t(rest) % shape[d];
        rest /= size_t(shape[d]);
        offset += (r[d].start + i * r[d].step) * stride[d];
      }
      y[o] = x[offset];
    }
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

}  // namespace

void register_onnx_slice(OpRegistry& r) {
  register_cpu<ONNXSlice>(r, SchemaBuilder("ONNXSlice", "Unsupported, Special Use")
                                 .doc("ONNX Slice with starts, ends and steps read at run time (inference only)")
                                 .in("x")
                                 .in("starts")
                                 .in("ends")
                                 .in("steps")
                                 .arg("axes", AttrType::kInts)
                                 .out("y")
                                 .build());
}
}  // namespace nn::ops
