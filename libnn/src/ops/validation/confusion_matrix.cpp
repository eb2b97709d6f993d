// ConfusionMatrix: counts (label, argmax) pairs along axis into a (C, C) matrix; no gradient.
#include "ops/activation/axis_split.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {

class ConfusionMatrix : public Function {
 public:
  using Function::Function;
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const Shape& ls = in[1]->shape();
    NN_CHECK(!xs.empty()) << "ConfusionMatrix: input must have at least one dimension";
    axis_ = axis_argument(attrs_, xs);
    bool ok = ls.size() == xs.size();
    for (size_t d = 0; ok && d < xs.size(); ++d) ok = ls[d] == (int(d) == axis_ ? 1 : xs[d]);
    NN_CHECK(ok) << "ConfusionMatrix: label shape " << to_string(ls) << " must equal input shape " << to_string(xs)
                 << " with size 1 along axis " << axis_;
    classes_ = xs[axis_];
    inner_ = shape_size(xs, axis_ + 1, xs.size());
    outer_ = shape_size(xs, 0, axis_);
    out[0]->reshape({classes_, classes_}, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const float* t = in_data(in[1]);
    float* y = out_data(out[0]);
    std::fill(y, y + classes_ * classes_, 0.f);
    for (int64_t o = 0; o < outer_; ++o)
      for (int64_t i = 0; i < inner_; ++i) {
        const float* xp = x + o * classes_ * inner_ + i;
        int64_t best = 0;
        for (int64_t c = 1; c < classes_; ++c)
          if (xp[c * inner_] > xp[best * inner_]) best = c;
        const int64_t label = int64_t(t[o * inner_ + i]);
        NN_CHECK(label >= 0 && label < classes_)
            << "ConfusionMatrix: label " << t[o * inner_ + i] << " is outside [0, " << classes_ << ")";
        y[label * classes_ + best] += 1.f;
      }
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

 private:
  int axis_ = 0;
  int64_t classes_ = 0, inner_ = 1, outer_ = 1;
};

}  // namespace

void register_confusion_matrix(OpRegistry& r) {
  register_cpu<ConfusionMatrix>(r, SchemaBuilder("ConfusionMatrix", "Validation")
                                       .doc("confusion matrix of argmax predictions against labels")
                                       .in("x")
                                       .in("target")
                                       .arg("axis", AttrType::kInt, std::nullopt, "last axis")
                                       .out("output")
                                       .build());
}

}  // namespace nn::ops
