// Shape (the input's dimensions as data), NonZero (coordinates of non-zero elements) and Assign (dst <- src).
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

// y (ndim, count): column k holds the coordinates of the k-th non-zero element in C order.
class NonZero : public Function {
 public:
  using Function::Function;
  bool output_size_follows_data() const override { return true; }
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(in[0]->ndim() > 0) << "NonZero: input must have at least 1 dimension";
    out[0]->reshape({in[0]->ndim(), count(in[0])}, true);
  }
  static int64_t count(Variable* x) {
    const float* p = in_data(x);
    return int64_t(std::count_if(p, p + x->size(), [](float v) { return v != 0.f; }));
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const int64_t nd = int64_t(xs.size()), total = count(in[0]);
    out[0]->reshape({nd, total}, true);  // the count follows the data, as upstream
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    for (int64_t i = 0, k = 0; i < in[0]->size(); ++i) {
      if (x[i] == 0.f) continue;
      for (int64_t d = nd - 1, rest = i; d >= 0; --d) {
        y[d * total + k] = float(rest % xs[size_t(d)]);
        rest /= xs[size_t(d)];
      }
      ++k;
    }
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}
};

// dst's data <- src's data, y = the same values. Backward passes dy to dst only (as upstream).
class Assign : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(in[0]->shape() == in[1]->shape()) << "Assign: dst shape " << to_string(in[0]->shape())
                                               << " differs from src shape " << to_string(in[1]->shape());
    out[0]->reshape(in[0]->shape(), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* src = in_data(in[1]);
    std::copy_n(src, in[1]->size(), out_data(in[0]));
    std::copy_n(src, in[1]->size(), out_data(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const bool acc = accum[0];
    parallel_for(in[0]->size(), [&](int64_t i) { store_grad(dx, i, dy[i], acc); });
  }
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
void register_nonzero(OpRegistry& r) {
  register_cpu<NonZero>(r, SchemaBuilder("NonZero", "Array Manipulation")
                               .doc("coordinates of the non-zero elements, (ndim, count)")
                               .in("x")
                               .out("y")
                               .build());
}
void register_assign(OpRegistry& r) {
  register_cpu<Assign>(r, SchemaBuilder("Assign", "Array Manipulation")
                              .doc("copies src into dst; y has the same values")
                              .in("dst")
                              .in("src")
                              .out("y")
                              .build());
}
}  // namespace nn::ops
