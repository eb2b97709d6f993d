// MaxPooling: max over each (padding-clipped) window; forward records the argmax that backward routes to.
#include <limits>

#include "ops/detail/op_common.hpp"
#include "ops/pooling/pooling_common.hpp"

namespace nn::ops {
namespace {
class MaxPooling : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    plan_ = plan_pooling("MaxPooling", in[0]->shape(), attrs_);
    NN_CHECK(plan_.in_size < std::numeric_limits<int32_t>::max())
        << "MaxPooling: pooled map of " << plan_.in_size << " elements is too large";
    argmax_.assign(size_t(plan_.maps * plan_.out_size), -1);
    forward_done_ = false;
    out[0]->reshape(plan_.y_shape, true);
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const PoolPlan& p = plan_;
    auto map = [&](int64_t m) {
      const float* xm = x + m * p.in_size;
      float* ym = y + m * p.out_size;
      int32_t* am = argmax_.data() + m * p.out_size;
      if (p.kernel.size() == 2) {
        max_2d(p, xm, ym, am);
        return;
      }
      for_each_window(p, [&](int64_t yi, const int64_t* lo, const int64_t* hi, const int64_t*) {
        // Branch-free running max (first maximum wins, as upstream): data-dependent branches mispredict.
        float best = -std::numeric_limits<float>::infinity();
        int64_t arg = -1;
        for_each_in_window(p, lo, hi, [&](int64_t xi) {
          const float v = xm[xi];
          const bool take = v > best || arg < 0;
          best = take ? v : best;
          arg = take ? xi : arg;
        });
        ym[yi] = arg < 0 ? 0.f : best;  // a window lying wholly in the padding yields 0
        am[yi] = int32_t(arg);
      });
    };
    if (p.maps * p.in_size >= kParallelThreshold && p.maps > 1) {
#pragma omp parallel for schedule(static)
      for (int64_t m = 0; m < p.maps; ++m) map(m);
    } else {
      for (int64_t m = 0; m < p.maps; ++m) map(m);
    }
    forward_done_ = true;
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    NN_CHECK(forward_done_) << "MaxPooling: backward needs a forward first (it records the argmax)";
    const float* dy = out_grad(out[0]);
    float* dx = in_grad_zeroed(in[0], accum[0]);
    const PoolPlan& p = plan_;
    auto map = [&](int64_t m) {
      float* dxm = dx + m * p.in_size;
      const float* dym = dy + m * p.out_size;
      const int32_t* am = argmax_.data() + m * p.out_size;
      for (int64_t i = 0; i < p.out_size; ++i)
        if (am[i] >= 0) dxm[am[i]] += dym[i];
    };
    if (p.maps * p.in_size >= kParallelThreshold && p.maps > 1) {
#pragma omp parallel for schedule(static)
      for (int64_t m = 0; m < p.maps; ++m) map(m);
    } else {
      for (int64_t m = 0; m < p.maps; ++m) map(m);
    }
  }

 private:
  // One 2-D map with plain loops: the hot case (CNN max pooling).
  static void max_2d(const PoolPlan& p, const float* xm, float* ym, int32_t* am) {
    const int64_t oh = p.out[0], ow = p.out[1], w = p.in[1];
    for (int64_t i = 0; i < oh; ++i) {
      const int64_t r0 = p.lo[0][size_t(i)], r1 = p.hi[0][size_t(i)];
      for (int64_t j = 0; j < ow; ++j) {
        const int64_t c0 = p.lo[1][size_t(j)], c1 = p.hi[1][size_t(j)];
        float best = -std::numeric_limits<float>::infinity();
        int32_t arg = -1;
        for (int64_t r = r0; r < r1; ++r)
          for (int64_t c = c0; c < c1; ++c) {
            const float v = xm[r * w + c];
            const bool take = v > best || arg < 0;
            best = take ? v : best;
            arg = take ? int32_t(r * w + c) : arg;
          }
        ym[i * ow + j] = arg < 0 ? 0.f : best;
        am[i * ow + j] = arg;
      }
    }
  }

  PoolPlan plan_;
  std::vector<int32_t> argmax_;  // per output: offset of the max within its map (-1: empty window)
  bool forward_done_ = false;
};
}  // namespace

void register_max_pooling(OpRegistry& r) {
  register_cpu<MaxPooling>(r, SchemaBuilder("MaxPooling", "Neural Network Layer")
                                  .doc("max over kernel windows of the last len(kernel) axes")
                                  .in("x")
                                  .arg("kernel", AttrType::kShape)
                                  .arg("stride", AttrType::kShape, std::nullopt, "kernel")
                                  .arg("ignore_border", AttrType::kBool, AttrValue(true))
                                  .arg("pad", AttrType::kShape, std::nullopt, "0s")
                                  .arg("channel_last", AttrType::kBool, AttrValue(false))
                                  .out("y")
                                  .build());
}

}  // namespace nn::ops
