// Shape: the input's dimensions [start, end) as data (a 1-D array); not differentiable.
#include <algorithm>

#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

// y = x.shape[start:end] as a 1-D array; negative start/end count from the back, end=0 means ndim.
class ShapeOp : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const int64_t nd = in[0]->ndim();
    NN_CHECK(nd > 0) << "Shape: input must have at least 1 dimension";
    const int64_t start = attrs_.get_int("start"), end = attrs_.get_int("end");
    begin_ = start < 0 ? std::max<int64_t>(0, start + nd) : std::min(start, nd);
    end_ = end < 0 ? std::max<int64_t>(0, end + nd) : (end == 0 ? nd : std::min(end, nd));
    out[0]->reshape({std::max<int64_t>(0, end_ - begin_)}, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    float* y = out_data(out[0]);
    for (int64_t i = begin_; i < end_; ++i) y[i - begin_] = float(in[0]->shape()[size_t(i)]);
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

 private:
  int64_t begin_ = 0, end_ = 0;
};

}  // namespace

void register_shape(OpRegistry& r) {
  register_cpu<ShapeOp>(r, SchemaBuilder("Shape", "Array Manipulation")
                               .doc("the input's dimensions [start, end) as a 1-D array")
                               .in("x")
                               .arg("start", AttrType::kInt, AttrValue(int64_t(0)))
                               .arg("end", AttrType::kInt, AttrValue(int64_t(0)))
                               .out("shape")
                               .build());
}
}  // namespace nn::ops
