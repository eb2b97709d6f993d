// Softmax and LogSoftmax along an axis (default last), numerically stable (max subtracted).
#include <cmath>
#include <vector>

#include "ops/activation/axis_split.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {
// Shared setup: the axis (default last) and the (outer, axis, inner) view.
class SoftmaxBase : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }
  bool grad_depends_output_data(int, int) const override { return true; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& s = in[0]->shape();
    NN_CHECK(!s.empty()) << type() << ": input must have at least one dimension";
    int axis = normalize_axis(attrs_.get_int("axis", int64_t(s.size()) - 1), s.size(), "Softmax axis");
    split_ = split_at_axis(s, axis);
    out[0]->reshape(s, true);
  }
  // Calls f(offset_of_first, stride) for every (outer, inner) line along the axis.
  template <class F>
  void for_each_line(F&& f) const {
    const int64_t lines = split_.outer * split_.inner;
    const int64_t inner = split_.inner, size = split_.size;
    auto body = [&](int64_t l) {
      int64_t o = l / inner, j = l % inner;
      f(o * size * inner + j, inner);
    };
    if (lines * size >= kParallelThreshold) {
#pragma omp parallel for schedule(static)
      for (int64_t l = 0; l < lines; ++l) body(l);
    } else {
      for (int64_t l = 0; l < lines; ++l) body(l);
    }
  }
  AxisSplit split_;
};

// Writes the shifted values x - max and returns log(sum(exp(x - max))) for one line.
inline float shifted_log_sum_exp(const float* x, float* y, int64_t n, int64_t stride) {
  float m = x[0];
  for (int64_t c = 1; c < n; ++c) m = std::max(m, x[c * stride]);
  float s = 0.f;
  for (int64_t c = 0; c < n; ++c) {
    y[c * stride] = x[c * stride] - m;
    s += std::exp(y[c * stride]);
  }
  return std::log(s);
}

class Softmax : public SoftmaxBase {
 public:
  using SoftmaxBase::SoftmaxBase;

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const int64_t n = split_.size;
    for_each_line([&](int64_t off, int64_t st) {
      float lse = shifted_log_sum_exp(x + off, y + off, n, st);
      for (int64_t c = 0; c < n; ++c) y[off + c * st] = std::exp(y[off + c * st] - lse);
    });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* y = in_data(out[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const bool acc = accum[0];
    const int64_t n = split_.size;
    for_each_line([&](int64_t off, int64_t st) {
      float dot = 0.f;
      for (int64_t c = 0; c < n; ++c) dot += dy[off + c * st] * y[off + c * st];
      for (int64_t c = 0; c < n; ++c) {
        int64_t i = off + c * st;
        store_grad(dx, i, y[i] * (dy[i] - dot), acc);
      }
    });
  }
};

class LogSoftmax : public SoftmaxBase {
 public:
  using SoftmaxBase::SoftmaxBase;

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const int64_t n = split_.size;
    for_each_line([&](int64_t off, int64_t st) {
      float lse = shifted_log_sum_exp(x + off, y + off, n, st);
      for (int64_t c = 0; c < n; ++c) y[off + c * st] -= lse;
    });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* y = in_data(out[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const bool acc = accum[0];
    const int64_t n = split_.size;
    for_each_line([&](int64_t off, int64_t st) {
      float sum = 0.f;
      for (int64_t c = 0; c < n; ++c) sum += dy[off + c * st];
      for (int64_t c = 0; c < n; ++c) {
        int64_t i = off + c * st;
        store_grad(dx, i, dy[i] - std::exp(y[i]) * sum, acc);
      }
    });
  }
};

OpSchema softmax_schema(const char* name, const char* doc) {
  return SchemaBuilder(name, "Neural Network Activation Functions")
      .doc(doc)
      .in("x")
      .arg("axis", AttrType::kInt, std::nullopt, "last axis")
      .out("y")
      .build();
}
}  // namespace

void register_softmax(OpRegistry& r) {
  register_cpu<Softmax>(r, softmax_schema("Softmax", "y = exp(x) / sum(exp(x)) along axis"));
}
void register_log_softmax(OpRegistry& r) {
  register_cpu<LogSoftmax>(r, softmax_schema("LogSoftmax", "y = x - log(sum(exp(x))) along axis"));
}
}  // namespace nn::ops
