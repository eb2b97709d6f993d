// BatchMatmul: y[s] = op(a[s]) op(b[s]) over the leading (batch) dims, with the BLAS sgemm.
#include "ops/nn_layer/conv_core.hpp"

#include <algorithm>

#include "nn/core/first_exception.hpp"
#include "ops/array/array_args.hpp"
#include "ops/detail/blas.hpp"
#include "ops/detail/op_common.hpp"
#include "ops/detail/team_mode.hpp"

namespace nn::ops {

BatchMatmulPlan plan_batch_matmul(const Attrs& attrs, const Shape& as, const Shape& bs) {
  BatchMatmulPlan p;
  NN_CHECK(as.size() >= 2 && bs.size() >= 2) << "BatchMatmul: inputs must have at least 2 dimensions, got a "
                                             << to_string(as) << " and b " << to_string(bs);
  p.ta = attrs.get_bool("transpose_a");
  p.tb = attrs.get_bool("transpose_b");
  p.rows_a = as[as.size() - 2], p.cols_a = as.back();
  p.rows_b = bs[bs.size() - 2], p.cols_b = bs.back();
  p.m = p.ta ? p.cols_a : p.rows_a;
  p.k = p.ta ? p.rows_a : p.cols_a;
  p.n = p.tb ? p.rows_b : p.cols_b;
  const int64_t kb = p.tb ? p.cols_b : p.rows_b;
  p.samples = shape_size(as, 0, as.size() - 2);
  NN_CHECK(p.samples == shape_size(bs, 0, bs.size() - 2))
      << "BatchMatmul: batch sizes of a " << to_string(as) << " and b " << to_string(bs) << " differ";
  NN_CHECK(p.k == kb) << "BatchMatmul: reduction sizes differ (" << p.k << " vs " << kb << ") for a "
                      << to_string(as) << " (transpose_a " << p.ta << ") and b " << to_string(bs)
                      << " (transpose_b " << p.tb << ")";
  p.y_shape.assign(as.begin(), as.end() - 2);
  p.y_shape.push_back(p.m);
  p.y_shape.push_back(p.n);
  return p;
}

int product_sharing_threads(const BatchMatmulPlan& p) {
  const double product_flops = 2.0 * double(p.m) * double(p.n) * double(p.k);
  const bool alone =
      blas_product_on_one_thread(p.ta, p.tb, p.m, p.n, p.k) || threads_for_flops(product_flops) == 1;
  if (p.samples < 2 || !alone) return 1;
  return int(std::min<int64_t>(p.samples, threads_for_flops(product_flops * double(p.samples))));
}

namespace {

class BatchMatmul : public Function {
 public:
  using Function::Function;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    p_ = plan_batch_matmul(attrs_, in[0]->shape(), in[1]->shape());
    out[0]->reshape(p_.y_shape, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    const float* a = in_data(in[0]);
    const float* b = in_data(in[1]);
    float* y = out_data(out[0]);
    auto products = [&](int64_t s0, int64_t s1) {
      for (int64_t s = s0; s < s1; ++s)
        sgemm(p_.ta, p_.tb, int(p_.m), int(p_.n), int(p_.k), 1.f, a + s * p_.rows_a * p_.cols_a, int(p_.cols_a),
              b + s * p_.rows_b * p_.cols_b, int(p_.cols_b), 0.f, y + s * p_.m * p_.n, int(p_.n));
    };
    // TeamMode chooses between one thread and the team, as for convolutions and affine layers; products that run
    // on one thread each are shared out whole (the same kernels, so the same results).
    const double flops = 2.0 * double(p_.m) * double(p_.n) * double(p_.k) * double(p_.samples);
    const bool splits = p_.samples > 1 || !blas_product_on_one_thread(p_.ta, p_.tb, p_.m, p_.n, p_.k);
    run_in_team_mode(splits ? flops : 0.0, [&](int threads) {
      ThreadScope scope(threads);
      const int team = product_sharing_threads(p_);
      if (team == 1) return products(0, p_.samples);
      FirstException failure;  // none may leave the region
#pragma omp parallel num_threads(team)
      {
        const int64_t t = omp_get_thread_num(), n = omp_get_num_threads();
        failure.run([&] { products(p_.samples * t / n, p_.samples * (t + 1) / n); });
      }
      failure.rethrow();
    });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const float* dy = out_grad(out[0]);
    const int64_t sa = p_.rows_a * p_.cols_a, sb = p_.rows_b * p_.cols_b, sy = p_.m * p_.n;
    if (prop[0]) {
      const float* b = in_data(in[1]);
      float* da = in_grad_zeroed(in[0], accum[0]);
      for (int64_t s = 0; s < p_.samples; ++s) {
        if (!p_.ta)  // da (m x k) += dy (m x n) . op(b)^T
          sgemm(false, !p_.tb, int(p_.m), int(p_.k), int(p_.n), 1.f, dy + s * sy, int(p_.n), b + s * sb,
                int(p_.cols_b), 1.f, da + s * sa, int(p_.cols_a));
        else  // da (k x m) += op(b) . dy^T
          sgemm(p_.tb, true, int(p_.k), int(p_.m), int(p_.n), 1.f, b + s * sb, int(p_.cols_b), dy + s * sy,
                int(p_.n), 1.f, da + s * sa, int(p_.cols_a));
      }
    }
    if (prop[1]) {
      const float* a = in_data(in[0]);
      float* db = in_grad_zeroed(in[1], accum[1]);
      for (int64_t s = 0; s < p_.samples; ++s) {
        if (!p_.tb)  // db (k x n) += op(a)^T . dy
          sgemm(!p_.ta, false, int(p_.k), int(p_.n), int(p_.m), 1.f, a + s * sa, int(p_.cols_a), dy + s * sy,
                int(p_.n), 1.f, db + s * sb, int(p_.cols_b));
        else  // db (n x k) += dy^T . op(a)
          sgemm(true, p_.ta, int(p_.n), int(p_.k), int(p_.m), 1.f, dy + s * sy, int(p_.n), a + s * sa,
                int(p_.cols_a), 1.f, db + s * sb, int(p_.cols_b));
      }
    }
  }

 private:
  BatchMatmulPlan p_;
};

}  // namespace

void register_batch_matmul(OpRegistry& r) {
  register_cpu<BatchMatmul>(r, SchemaBuilder("BatchMatmul", "Array Manipulation")
                                   .doc("batched matrix product of the last two axes")
                                   .in("a")
                                   .in("b")
                                   .arg("transpose_a", AttrType::kBool, AttrValue(false))
                                   .arg("transpose_b", AttrType::kBool, AttrValue(false))
                                   .out("y")
                                   .build());
}

}  // namespace nn::ops
