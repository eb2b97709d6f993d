// OneHot: integer indices (..., N) -> one-hot array (..., shape[0], ..., shape[N-1]); not differentiable.
#include <cmath>

#include "ops/array/array_args.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class OneHot : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    shape_ = one_hot_shape(attrs_);
    NN_CHECK(!xs.empty() && int64_t(shape_.size()) == xs.back())
        << "OneHot: the last dimension of input " << to_string(xs) << " must equal the length of shape "
        << to_string(shape_);
    check_shape(shape_, "OneHot: shape");
    Shape ys(xs.begin(), xs.end() - 1);
    ys.insert(ys.end(), shape_.begin(), shape_.end());
    out[0]->reshape(ys, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const int64_t dim = int64_t(shape_.size()), block = shape_size(shape_);
    const int64_t num = dim ? in[0]->size() / dim : 0;
    std::fill(y, y + out[0]->size(), 0.f);
    for (int64_t i = 0; i < num; ++i) {
      int64_t addr = 0;
      for (int64_t k = 0; k < dim; ++k) {
        const int64_t v = int64_t(std::lround(x[i * dim + k]));
        NN_CHECK(v >= 0 && v < shape_[k])
            << "OneHot: index " << v << " at position " << i * dim + k << " is outside [0, " << shape_[k]
            << ") (shape " << to_string(shape_) << ")";
        addr = addr * shape_[k] + v;
      }
      y[i * block + addr] = 1.f;
    }
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

 private:
  Shape shape_;
};

}  // namespace

void register_one_hot(OpRegistry& r) {
  register_cpu<OneHot>(r, SchemaBuilder("OneHot", "Array Manipulation")
                              .doc("one-hot encoding of integer indices")
                              .in("x")
                              .arg("shape", AttrType::kShape)
                              .out("output")
                              .build());
}

}  // namespace nn::ops
