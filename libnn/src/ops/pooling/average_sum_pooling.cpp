// AveragePooling (including_pad or not) and SumPooling: window sums scaled per output position.
#include "ops/detail/channels_last_view.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/pooling/pooling_common.hpp"

namespace nn::ops {
namespace {
// Sum of each window times a per-output scale (1 / window size for averages, 1 for sums).
class ScaledWindowSum : public Function {
 public:
  ScaledWindowSum(const OpSchema& s, const Context& c, const Attrs& a, bool average)
      : Function(s, c, a), average_(average) {}
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    plan_ = plan_pooling(type(), in[0]->shape(), attrs_);
    const bool including_pad = average_ && ops::including_pad(attrs_);  // SumPooling has none
    scale_.assign(size_t(plan_.out_size), 1.f);
    if (average_) {
      for_each_window(plan_, [&](int64_t yi, const int64_t* lo, const int64_t* hi, const int64_t* o) {
        int64_t n = 1;
        for (size_t d = 0; d < plan_.kernel.size(); ++d)
          n *= including_pad ? plan_.padded_len[d][size_t(o[d])] : hi[d] - lo[d];
        scale_[size_t(yi)] = n > 0 ? 1.f / float(n) : 0.f;
      });
    }
    out[0]->reshape(plan_.y_shape, true);
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    if (forward_channels_last(in[0], out[0])) return;
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const PoolPlan& p = plan_;
    run_maps([&](int64_t m) {
      const float* xm = x + m * p.in_size;
      float* ym = y + m * p.out_size;
      for_each_window(p, [&](int64_t yi, const int64_t* lo, const int64_t* hi, const int64_t*) {
        float s = 0.f;
        for_each_in_window(p, lo, hi, [&](int64_t xi) { s += xm[xi]; });
        ym[yi] = s * scale_[size_t(yi)];
      });
    });
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    const PoolPlan& p = plan_;
    run_maps([&](int64_t m) {
      float* dxm = dx + m * p.in_size;
      const float* dym = dy + m * p.out_size;
      for_each_window(p, [&](int64_t yi, const int64_t* lo, const int64_t* hi, const int64_t*) {
        const float g = dym[yi] * scale_[size_t(yi)];
        for_each_in_window(p, lo, hi, [&](int64_t xi) { dxm[xi] += g; });
      });
    });
  }

 private:
  // 2-D windows over an input a convolution left channels-last: each output pixel's channels summed there, the
  // output channels-last too (DenseNet's transitions: a reorder each way around every pooling otherwise).
  bool forward_channels_last(Variable* in, Variable* out) {
    const PoolPlan& p = plan_;
    if (p.kernel.size() != 2 || !held_channels_last(*in->data())) return false;
    const Shape& xs = in->shape();
    const int64_t c = xs[1], w = xs[3], oh = p.out[0], ow = p.out[1];
    const float* x = static_cast<const float*>(in->data()->get_raw(channels_last_key()));
    float* y = static_cast<float*>(out->data()->cast_raw(channels_last_key(), true));
    const int64_t rows = xs[0] * oh;
    parallel_ranges(rows, rows * ow * c, [&](int64_t begin, int64_t end, int) {
      for (int64_t r = begin; r < end; ++r) {
        const int64_t n = r / oh, i = r % oh;
        const int64_t lo0 = p.lo[0][size_t(i)], hi0 = p.hi[0][size_t(i)];
        for (int64_t j = 0; j < ow; ++j) {
          const int64_t lo1 = p.lo[1][size_t(j)], hi1 = p.hi[1][size_t(j)];
          float* yp = y + (r * ow + j) * c;
          std::fill(yp, yp + c, 0.f);
          for (int64_t a = lo0; a < hi0; ++a)
            for (int64_t b = lo1; b < hi1; ++b) {
              const float* xp = x + ((n * xs[2] + a) * w + b) * c;
#pragma omp simd
              for (int64_t k = 0; k < c; ++k) yp[k] += xp[k];
            }
          const float scale = scale_[size_t(i * ow + j)];
#pragma omp simd
          for (int64_t k = 0; k < c; ++k) yp[k] *= scale;
        }
      }
    });
    return true;
  }

  template <class F>
  void run_maps(F&& f) const {
    if (plan_.maps * plan_.in_size >= kParallelThreshold && plan_.maps > 1) {
#pragma omp parallel for schedule(static)
      for (int64_t m = 0; m < plan_.maps; ++m) f(m);
    } else {
      for (int64_t m = 0; m < plan_.maps; ++m) f(m);
    }
  }

  bool average_;
  PoolPlan plan_;
  std::vector<float> scale_;  // per output position of one map
};

class AveragePooling : public ScaledWindowSum {
 public:
  AveragePooling(const OpSchema& s, const Context& c, const Attrs& a) : ScaledWindowSum(s, c, a, true) {}
};
class SumPooling : public ScaledWindowSum {
 public:
  SumPooling(const OpSchema& s, const Context& c, const Attrs& a) : ScaledWindowSum(s, c, a, false) {}
};

SchemaBuilder pooling_schema(const char* name, const char* doc) {
  SchemaBuilder s(name, "Neural Network Layer");
  s.doc(doc)
      .in("x")
      .arg("kernel", AttrType::kShape)
      .arg("stride", AttrType::kShape, std::nullopt, "kernel")
      .arg("ignore_border", AttrType::kBool, AttrValue(true))
      .arg("pad", AttrType::kShape, std::nullopt, "0s")
      .arg("channel_last", AttrType::kBool, AttrValue(false));
  return s;
}
}  // namespace

void register_average_pooling(OpRegistry& r) {
  auto s = pooling_schema("AveragePooling", "mean over kernel windows (padding counted when including_pad)");
  s.arg("including_pad", AttrType::kBool, AttrValue(true)).out("y");
  register_cpu<AveragePooling>(r, s.build());
}

void register_sum_pooling(OpRegistry& r) {
  auto s = pooling_schema("SumPooling", "sum over kernel windows");
  s.out("y");
  register_cpu<SumPooling>(r, s.build());
}

}  // namespace nn::ops
