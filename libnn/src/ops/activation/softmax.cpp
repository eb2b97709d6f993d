// Softmax and LogSoftmax along an axis (default last), numerically stable (max subtracted).
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "nn/ops/detail/fast_math.hpp"
#include "ops/activation/axis_split.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/detail/vector_math.hpp"

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
    int axis = axis_argument(attrs_, s, "Softmax axis");
    split_ = split_at_axis(s, axis);
    out[0]->reshape(s, true);
  }
  // Splits the work into units, each a block of `inner` columns [j0, j1) of one outer index, and calls
  // f(base, j0, j1) with base the offset of (outer, 0, 0); element (c, j) of the unit is base + c * inner +
  // j.
  template <class F>
  void for_each_unit(F&& f) const {
    const int64_t inner = split_.inner, size = split_.size;
    if (size == 0 || inner == 0) return;
    const int64_t chunks = (inner + kColumns - 1) / kColumns;
    const int64_t units = split_.outer * chunks;
    auto body = [&](int64_t u) {
      const int64_t o = u / chunks, j0 = (u % chunks) * kColumns;
      f(o * size * inner, j0, std::min(inner, j0 + kColumns));
    };
    // The team's threshold (parallel_ranges): attention's 2 x 128 x 128 probabilities split on a quiet machine.
    parallel_ranges(units, units * size * std::min(inner, kColumns), [&](int64_t u0, int64_t u1, int) {
      for (int64_t u = u0; u < u1; ++u) body(u);
    });
  }
  static constexpr int64_t kColumns = 256;  // columns per unit when the axis is not the last one
  AxisSplit split_;
};

// Writes exp(x - max) into e for one contiguous line and returns (max, sum of e) (AVX-512 where the CPU has it:
// attention's 2 x 128 x 128 probabilities took 32 us on the build's vector width, 1 ns an element).
inline std::pair<float, float> exp_shifted_line(const float* x, float* e, int64_t n) {
  return exp_shifted_array(x, e, n);
}

// The same over columns [j0, j1) of an (n, inner) block: per-column max in m and sum in s.
inline void exp_shifted_columns(const float* x, float* e, int64_t n, int64_t inner, int64_t j0, int64_t j1,
                                float* m, float* s) {
  for (int64_t j = j0; j < j1; ++j) m[j - j0] = x[j], s[j - j0] = 0.f;
  for (int64_t c = 1; c < n; ++c) {
    const float* xr = x + c * inner;
#pragma omp simd
    for (int64_t j = j0; j < j1; ++j) m[j - j0] = std::max(m[j - j0], xr[j]);
  }
  for (int64_t c = 0; c < n; ++c) {
    const float* xr = x + c * inner;
    float* er = e + c * inner;
#pragma omp simd
    for (int64_t j = j0; j < j1; ++j) {
      er[j] = fast::exp_nonpositive(xr[j] - m[j - j0]);
      s[j - j0] += er[j];
    }
  }
}

class Softmax : public SoftmaxBase {
 public:
  using SoftmaxBase::SoftmaxBase;

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const int64_t n = split_.size, inner = split_.inner;
    for_each_unit([&](int64_t base, int64_t j0, int64_t j1) {
      if (inner == 1) {
        const float inv = 1.f / exp_shifted_line(x + base, y + base, n).second;
        float* yr = y + base;
#pragma omp simd
        for (int64_t c = 0; c < n; ++c) yr[c] *= inv;
        return;
      }
      float m[kColumns], s[kColumns];
      exp_shifted_columns(x + base, y + base, n, inner, j0, j1, m, s);
      for (int64_t j = j0; j < j1; ++j) s[j - j0] = 1.f / s[j - j0];
      for (int64_t c = 0; c < n; ++c) {
        float* yr = y + base + c * inner;
#pragma omp simd
        for (int64_t j = j0; j < j1; ++j) yr[j] *= s[j - j0];
      }
    });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* y = in_data(out[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const bool acc = accum[0];
    const int64_t n = split_.size, inner = split_.inner;
    // dx = y * (dy - sum(dy * y)) along the axis.
    auto update = [acc](float* dxr, const float* yr, const float* dyr, int64_t len, auto dot_at) {
      if (acc) {
#pragma omp simd
        for (int64_t k = 0; k < len; ++k) dxr[k] += yr[k] * (dyr[k] - dot_at(k));
      } else {
#pragma omp simd
        for (int64_t k = 0; k < len; ++k) dxr[k] = yr[k] * (dyr[k] - dot_at(k));
      }
    };
    for_each_unit([&](int64_t base, int64_t j0, int64_t j1) {
      if (inner == 1) {
        // Row pointers as locals: read through the closure, the loop reloads them and does not vectorize.
        const float* yr = y + base;
        const float* dyr = dy + base;
        float dot = 0.f;
#pragma omp simd reduction(+ : dot)
        for (int64_t k = 0; k < n; ++k) dot += yr[k] * dyr[k];
        update(dx + base, yr, dyr, n, [dot](int64_t) { return dot; });
        return;
      }
      float dot[kColumns] = {};
      for (int64_t c = 0; c < n; ++c) {
        const int64_t off = base + c * inner + j0;
        const float *yr = y + off, *dyr = dy + off;
#pragma omp simd
        for (int64_t k = 0; k < j1 - j0; ++k) dot[k] += yr[k] * dyr[k];
      }
      for (int64_t c = 0; c < n; ++c) {
        const int64_t off = base + c * inner + j0;
        update(dx + off, y + off, dy + off, j1 - j0, [&dot](int64_t k) { return dot[k]; });
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
    const int64_t n = split_.size, inner = split_.inner;
    for_each_unit([&](int64_t base, int64_t j0, int64_t j1) {
      if (inner == 1) {
        const std::pair<float, float> max_sum = exp_shifted_line(x + base, y + base, n);
        // (x - max) - log(sum): folding max + log(sum) into one float first loses digits for large x.
        const float m = max_sum.first, log_s = std::log(max_sum.second);
        const float* xr = x + base;
        float* yr = y + base;
#pragma omp simd
        for (int64_t c = 0; c < n; ++c) yr[c] = (xr[c] - m) - log_s;
        return;
      }
      float m[kColumns], s[kColumns];
      exp_shifted_columns(x + base, y + base, n, inner, j0, j1, m, s);
      for (int64_t j = j0; j < j1; ++j) s[j - j0] = std::log(s[j - j0]);
      for (int64_t c = 0; c < n; ++c) {
        const float* xr = x + base + c * inner;
        float* yr = y + base + c * inner;
#pragma omp simd
        for (int64_t j = j0; j < j1; ++j) yr[j] = (xr[j] - m[j - j0]) - s[j - j0];
      }
    });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* y = in_data(out[0]);
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const bool acc = accum[0];
    const int64_t n = split_.size, inner = split_.inner;
    // dx = dy - exp(y) * sum(dy) along the axis.
    auto update = [acc](float* dxr, const float* yr, const float* dyr, int64_t len, auto sum_at) {
      if (acc) {
#pragma omp simd
        for (int64_t k = 0; k < len; ++k) dxr[k] += dyr[k] - fast::exp(yr[k]) * sum_at(k);
      } else {
#pragma omp simd
        for (int64_t k = 0; k < len; ++k) dxr[k] = dyr[k] - fast::exp(yr[k]) * sum_at(k);
      }
    };
    for_each_unit([&](int64_t base, int64_t j0, int64_t j1) {
      if (inner == 1) {
        const float* dyr = dy + base;  // a local, as in Softmax::backward_impl
        float sum = 0.f;
#pragma omp simd reduction(+ : sum)
        for (int64_t k = 0; k < n; ++k) sum += dyr[k];
        update(dx + base, y + base, dy + base, n, [sum](int64_t) { return sum; });
        return;
      }
      float sum[kColumns] = {};
      for (int64_t c = 0; c < n; ++c) {
        const int64_t off = base + c * inner + j0;
        const float* dyr = dy + off;
#pragma omp simd
        for (int64_t k = 0; k < j1 - j0; ++k) sum[k] += dyr[k];
      }
      for (int64_t c = 0; c < n; ++c) {
        const int64_t off = base + c * inner + j0;
        update(dx + off, y + off, dy + off, j1 - j0, [&sum](int64_t k) { return sum[k]; });
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
