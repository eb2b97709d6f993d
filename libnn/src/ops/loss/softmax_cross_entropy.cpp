// SoftmaxCrossEntropy and CategoricalCrossEntropy: integer labels (stored as float, size 1 along axis).
#include <cmath>

#include "ops/activation/axis_split.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {
// Shared setup: x (..., C, ...) and label with the same shape except 1 along axis; y has the label's shape.
class LabelLoss : public Function {
 public:
  using Function::Function;
  std::vector<std::pair<int, int64_t>> index_inputs() const override { return {{1, split_.size}}; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& xs = in[0]->shape();
    const Shape& ts = in[1]->shape();
    NN_CHECK(!xs.empty()) << type() << ": input must have at least one dimension";
    axis_ = axis_argument(attrs_, xs);
    bool ok = ts.size() == xs.size();
    for (size_t d = 0; ok && d < xs.size(); ++d) ok = ts[d] == (int(d) == axis_ ? 1 : xs[d]);
    NN_CHECK(ok) << type() << ": label shape " << to_string(ts) << " must equal input shape " << to_string(xs)
                 << " with size 1 along axis " << axis_;
    split_ = split_at_axis(xs, axis_);
    out[0]->reshape(ts, true);
  }
  // Label of line l, checked to lie in [0, C).
  int64_t label(const float* t, int64_t l) const {
    int64_t k = int64_t(t[l]);
    NN_CHECK(k >= 0 && k < split_.size)
        << type() << ": label " << t[l] << " is outside [0, " << split_.size << ")";
    return k;
  }
  void check_label_grad(const std::vector<bool>& prop) const {
    NN_CHECK(!prop[1]) << type() << ": no gradient with respect to the label (input 1)";
  }
  int axis_ = 0;
  AxisSplit split_;
};

class SoftmaxCrossEntropy : public LabelLoss {
 public:
  using LabelLoss::LabelLoss;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    LabelLoss::setup_impl(in, out);
    log_p_.resize(size_t(in[0]->size()));
  }
  // y = -log softmax(x)[t]; log-softmax (kept for backward) with the max subtracted.
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const float* t = in_data(in[1]);
    float* y = out_data(out[0]);
    const int64_t n = split_.size, inner = split_.inner;
    const int64_t lines = split_.outer * inner;
    for (int64_t l = 0; l < lines; ++l) label(t, l);  // validate before the parallel loop
    parallel_for(lines, [&](int64_t l) {
      const int64_t off = (l / inner) * n * inner + l % inner;
      const float* xl = x + off;
      float* lp = log_p_.data() + off;
      float m = xl[0];
      for (int64_t c = 1; c < n; ++c) m = std::max(m, xl[c * inner]);
      float s = 0.f;
      for (int64_t c = 0; c < n; ++c) s += std::exp(xl[c * inner] - m);
      const float lse = m + std::log(s);
      for (int64_t c = 0; c < n; ++c) lp[c * inner] = xl[c * inner] - lse;
      y[l] = -lp[int64_t(t[l]) * inner];
    });
  }
  // dx = dy * (softmax(x) - onehot(t)).
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    check_label_grad(prop);
    if (!prop[0]) return;
    const float* t = in_data(in[1]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const bool acc = accum[0];
    const int64_t n = split_.size, inner = split_.inner;
    parallel_for(split_.outer * inner, [&](int64_t l) {
      const int64_t off = (l / inner) * n * inner + l % inner;
      const int64_t k = int64_t(t[l]);
      for (int64_t c = 0; c < n; ++c) {
        const int64_t i = off + c * inner;
        store_grad(dx, i, dy[l] * (std::exp(log_p_[size_t(i)]) - (c == k ? 1.f : 0.f)), acc);
      }
    });
  }

 private:
  std::vector<float> log_p_;
};

// y = -log(x[t]) for probabilities x.
class CategoricalCrossEntropy : public LabelLoss {
 public:
  using LabelLoss::LabelLoss;

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    const float* t = in_data(in[1]);
    float* y = out_data(out[0]);
    const int64_t n = split_.size, inner = split_.inner;
    for (int64_t l = 0; l < split_.outer * inner; ++l) {
      const int64_t off = (l / inner) * n * inner + l % inner;
      y[l] = -std::log(std::max(x[off + label(t, l) * inner], std::numeric_limits<float>::min()));
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    check_label_grad(prop);
    if (!prop[0]) return;
    const float* x = in_data(in[0]);
    const float* t = in_data(in[1]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    const int64_t n = split_.size, inner = split_.inner;
    for (int64_t l = 0; l < split_.outer * inner; ++l) {
      const int64_t i = (l / inner) * n * inner + l % inner + int64_t(t[l]) * inner;
      dx[i] -= dy[l] / std::max(x[i], std::numeric_limits<float>::min());
    }
  }
};

OpSchema schema(const char* name, const char* doc) {
  return SchemaBuilder(name, "Loss Functions")
      .doc(doc)
      .in("x")
      .in("target")
      .arg("axis", AttrType::kInt, std::nullopt, "last axis")
      .out("y")
      .build();
}
}  // namespace

void register_softmax_cross_entropy(OpRegistry& r) {
  register_cpu<SoftmaxCrossEntropy>(r, schema("SoftmaxCrossEntropy", "y = -log(softmax(x)[target]) along axis"));
}
void register_categorical_cross_entropy(OpRegistry& r) {
  register_cpu<CategoricalCrossEntropy>(r, schema("CategoricalCrossEntropy", "y = -log(x[target]) along axis"));
}
}  // namespace nn::ops
