// TopNError and BinaryError: forward-only error indicators (their backward leaves zero gradients).
#include "ops/activation/axis_split.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/validation/top_n_error_args.hpp"

namespace nn::ops {
namespace {
// Upstream computes no gradient; writing zeros keeps a graph that reaches these ops well defined.
class ForwardOnly : public Function {
 public:
  using Function::Function;

 protected:
  void backward_impl(const Variables& in, const Variables&, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    for (size_t i = 0; i < in.size(); ++i)
      if (prop[i]) in_grad_zeroed(in[i], accum[i]);
  }
};

// 1 where the target class is not among the n largest scores along axis (ties count against it).
class TopNError : public ForwardOnly {
 public:
  using ForwardOnly::ForwardOnly;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const Shape& ts = in[1]->shape();
    NN_CHECK(!xs.empty()) << "TopNError: input must have at least one dimension";
    int axis = axis_argument(attrs_, xs);
    bool ok = ts.size() == xs.size();
    for (size_t d = 0; ok && d < xs.size(); ++d) ok = ts[d] == (int(d) == axis ? 1 : xs[d]);
    NN_CHECK(ok) << "TopNError: label shape " << to_string(ts) << " must equal input shape " << to_string(xs)
                 << " with size 1 along axis " << axis;
    split_ = split_at_axis(xs, axis);
    out[0]->reshape(ts, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const float* t = in_data(in[1]);
    float* y = out_data(out[0]);
    const int64_t n = top_n(attrs_), c = split_.size, inner = split_.inner;
    for (int64_t l = 0; l < split_.outer * inner; ++l) {
      const int64_t k = int64_t(t[l]);
      NN_CHECK(k >= 0 && k < c) << "TopNError: label " << t[l] << " is outside [0, " << c << ")";
      const float* xl = x + (l / inner) * c * inner + l % inner;
      const float threshold = xl[k * inner];
      int64_t count = 0;
      for (int64_t j = 0; j < c; ++j) count += xl[j * inner] >= threshold ? 1 : 0;
      y[l] = count > n ? 1.f : 0.f;
    }
  }

 private:
  AxisSplit split_;
};

// 1 where (x >= 0.5) differs from (target >= 0.5).
class BinaryError : public ForwardOnly {
 public:
  using ForwardOnly::ForwardOnly;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    NN_CHECK(in[0]->shape() == in[1]->shape())
        << "BinaryError: x shape " << to_string(in[0]->shape()) << " and target shape "
        << to_string(in[1]->shape()) << " must match";
    out[0]->reshape(in[0]->shape(), true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const float* t = in_data(in[1]);
    float* y = out_data(out[0]);
    parallel_for(in[0]->size(), [&](int64_t i) { y[i] = (x[i] >= 0.5f) != (t[i] >= 0.5f) ? 1.f : 0.f; });
  }
};
}  // namespace

void register_top_n_error(OpRegistry& r) {
  register_cpu<TopNError>(r, SchemaBuilder("TopNError", "Validation")
                                 .doc("1 where the target is not among the top n scores along axis")
                                 .in("x")
                                 .in("target")
                                 .arg("axis", AttrType::kInt, std::nullopt, "last axis")
                                 .arg("n", AttrType::kInt, AttrValue(int64_t(1)))
                                 .out("output")
                                 .build());
}
void register_binary_error(OpRegistry& r) {
  register_cpu<BinaryError>(r, SchemaBuilder("BinaryError", "Validation")
                                   .doc("1 where (x >= 0.5) != (target >= 0.5)")
                                   .in("x")
                                   .in("target")
                                   .out("output")
                                   .build());
}
}  // namespace nn::ops
