// CUDA Affine, the binary affine layers and BatchMatmul through cuBLAS (row-major products mapped onto
// column-major GEMM), float and half (fp16 storage, float accumulation on tensor cores).
#include <type_traits>

#include "cuda/cublas_loader.hpp"
#include "cuda/kernels/conv.hpp"
#include "cuda/kernels/kernels.hpp"
#include "cuda/ops/cuda_ops.hpp"
#include "ops/array/array_args.hpp"
#include "ops/binary_layer/binary_layer_args.hpp"
#include "ops/nn_layer/affine_core.hpp"

namespace nn::cuda {
namespace {

// cuBLAS element type of T; half products accumulate in float (tensor cores), float ones stay full fp32.
template <class T>
constexpr cudaDataType_t cublas_type() {
  return std::is_same_v<T, __half> ? CUDA_R_16F : CUDA_R_32F;
}

// Row-major C (m x n) = alpha op(A) op(B) + beta C, `batch` times with the given element strides.
// Column-major view: C^T = op(B)^T op(A)^T, so B and A swap places. C must be packed (ldc == n, stride m * n).
template <class T>
void gemm_row_major(cublasHandle_t h, cudaStream_t s, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                    const T* a, int64_t lda, const T* b, int64_t ldb, float beta, T* c, int64_t ldc,
                    int64_t batch = 1, int64_t stride_a = 0, int64_t stride_b = 0, int64_t stride_c = 0) {
  if (m == 0 || n == 0 || batch == 0) return;
  if (k == 0) {  // empty sum (cuBLAS refuses the zero leading dimensions): C = beta C
    if (beta == 0.f) NN_CUDA_CHECK(cudaMemsetAsync(c, 0, size_t(batch * m * n) * sizeof(T), s));
    return;
  }
  const float alpha = 1.f;
  const cublasOperation_t op_a = trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_b = trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  constexpr cudaDataType_t type = cublas_type<T>();
  NN_CUBLAS_CHECK(cublas_api().gemm_strided_batched(
      h, op_b, op_a, int(n), int(m), int(k), &alpha, b, type, int(ldb), stride_b, a, type, int(lda), stride_a,
      &beta, c, type, int(ldc), stride_c, int(batch), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

// y = x w (+ b) over an ops::AffinePlan, and its gradients: the products of Affine and of the binary affine
// layers (which pass the weight they applied).
template <class T>
class AffineProducts {
 public:
  void plan(const char* op, const Shape& x, const Shape& w, const Shape* b, int64_t base_axis) {
    plan_ = ops::plan_affine(op, x, w, b, base_axis);
  }
  const ops::AffinePlan& plan() const { return plan_; }

  void forward(cublasHandle_t h, cudaStream_t s, const T* x, const T* w, const T* b, T* y) const {
    const auto& p = plan_;
    gemm_row_major(h, s, false, false, p.rows, p.outputs, p.inputs, x, p.inputs, w, p.outputs, 0.f, y, p.outputs);
    if (b) k::add_bias_rows(s, p.rows, p.outputs, b, y);
  }
  // Null outputs are skipped; accumulating ones are added to.
  void backward(cublasHandle_t h, cudaStream_t s, const T* x, const T* w, const T* dy, T* dx, bool accum_x, T* dw,
                bool accum_w, T* db, bool accum_b) const {
    const auto& p = plan_;
    if (dx)
      gemm_row_major(h, s, false, true, p.rows, p.inputs, p.outputs, dy, p.outputs, w, p.outputs,
                     accum_x ? 1.f : 0.f, dx, p.inputs);
    if (dw)
      gemm_row_major(h, s, true, false, p.inputs, p.outputs, p.rows, x, p.inputs, dy, p.outputs,
                     accum_w ? 1.f : 0.f, dw, p.outputs);
    if (db) {
      k::ReduceDims d;
      d.kept_ndim = d.reduced_ndim = 1;
      d.kept_shape[0] = p.outputs;
      d.kept_strides[0] = 1;
      d.reduced_shape[0] = p.rows;
      d.reduced_strides[0] = p.outputs;
      d.outputs = p.outputs;
      d.reduced = p.rows;
      k::reduce_sum(s, d, dy, db, 1.f, accum_b);
    }
  }

 private:
  ops::AffinePlan plan_;
};

template <class T>
class CudaAffine : public CudaFunction {
 public:
  using CudaFunction::CudaFunction;
  bool grad_depends_input_data(int i, int j) const override { return i != 2 && j != 2 && i != j; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    Shape b;
    if (in.size() > 2) b = in[2]->shape();
    products_.plan("Affine", in[0]->shape(), in[1]->shape(), in.size() > 2 ? &b : nullptr,
                   attrs_.get_int("base_axis"));
    out[0]->reshape(products_.plan().y_shape, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const T* x = data_in<T>(in[0]);
    const T* w = data_in<T>(in[1]);
    const T* b = in.size() > 2 ? data_in<T>(in[2]) : nullptr;
    products_.forward(cublas(ctx_.device_id), st(), x, w, b, data_out<T>(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    auto scope = enter();
    const bool has_b = in.size() > 2;
    const T* dy = grad_out<T>(out[0]);
    products_.backward(cublas(ctx_.device_id), st(), prop[1] ? data_in<T>(in[0]) : nullptr,
                       prop[0] ? data_in<T>(in[1]) : nullptr, dy, prop[0] ? grad_in<T>(in[0], accum[0]) : nullptr,
                       accum[0], prop[1] ? grad_in<T>(in[1], accum[1]) : nullptr, accum[1],
                       has_b && prop[2] ? grad_in<T>(in[2], accum[2]) : nullptr, has_b && accum[2]);
  }

 private:
  AffineProducts<T> products_;
};

// BinaryConnectAffine (kScaled false: inputs x, weight, binary_weight[, bias]) and BinaryWeightAffine
// (inputs x, weight, binary_weight, alpha[, bias]): forward writes binary_weight = sign(weight) (and alpha,
// the mean |weight| of each output column) and applies it (times alpha); the float weight receives the
// gradient of the applied weight, binary_weight and alpha none, as the CPU kernels.
template <class T, bool kScaled>
class CudaBinaryAffine : public CudaWithCpuSetup {
 public:
  CudaBinaryAffine(const OpSchema& s, const Context& c, const Attrs& a)
      : CudaWithCpuSetup(s, c, a), args_(attrs_) {}

 protected:
  static constexpr size_t kBiasIndex = kScaled ? 4 : 3;
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);  // binary_weight/alpha shapes are checked there
    Shape b;
    if (has_bias(in)) b = in[kBiasIndex]->shape();
    products_.plan(type().c_str(), in[0]->shape(), in[1]->shape(), has_bias(in) ? &b : nullptr, args_.base_axis);
    scaled_weight_.reset();
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const float zero_to = args_.quantize_zero_to;
    const T* w = data_in<T>(in[1]);
    T* bw = data_out<T>(in[2]);
    const T* applied = bw;
    if constexpr (kScaled) {
      const auto& p = products_.plan();
      if (!scaled_weight_) scaled_weight_ = device_buffer(size_t(in[1]->size()) * sizeof(T));
      T* scaled = static_cast<T*>(scaled_weight_->ptr);
      k::binarize_weight_scaled_columns(st(), p.inputs, p.outputs, w, bw, data_out<T>(in[3]), scaled, zero_to);
      applied = scaled;
    } else {
      k::binarize_weight(st(), in[1]->size(), w, bw, zero_to);
    }
    products_.forward(cublas(ctx_.device_id), st(), data_in<T>(in[0]), applied,
                      has_bias(in) ? data_in<T>(in[kBiasIndex]) : nullptr, data_out<T>(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    auto scope = enter();
    const T* applied = nullptr;
    if (prop[0]) {
      if constexpr (kScaled) {
        NN_INTERNAL_CHECK(scaled_weight_) << type() << ": backward before forward";
        applied = static_cast<const T*>(scaled_weight_->ptr);
      } else {
        applied = data_in<T>(in[2]);
      }
    }
    const bool db = has_bias(in) && prop[kBiasIndex];
    products_.backward(cublas(ctx_.device_id), st(), prop[1] ? data_in<T>(in[0]) : nullptr, applied,
                       grad_out<T>(out[0]), prop[0] ? grad_in<T>(in[0], accum[0]) : nullptr, accum[0],
                       prop[1] ? grad_in<T>(in[1], accum[1]) : nullptr, accum[1],
                       db ? grad_in<T>(in[kBiasIndex], accum[kBiasIndex]) : nullptr, db && accum[kBiasIndex]);
  }

 private:
  bool has_bias(const Variables& in) const { return in.size() > kBiasIndex; }
  ops::BinaryLayerArgs args_;
  AffineProducts<T> products_;
  std::shared_ptr<Buffer> scaled_weight_;  // BinaryWeightAffine: sign(W) * alpha, kept for backward
};

template <class T>
using CudaBinaryConnectAffine = CudaBinaryAffine<T, false>;
template <class T>
using CudaBinaryWeightAffine = CudaBinaryAffine<T, true>;

template <class T>
class CudaBatchMatmul : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);  // the shapes are checked there
    p_ = ops::plan_batch_matmul(attrs_, in[0]->shape(), in[1]->shape());
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const T* a = data_in<T>(in[0]);
    const T* b = data_in<T>(in[1]);
    gemm_row_major(cublas(ctx_.device_id), st(), p_.ta, p_.tb, p_.m, p_.n, p_.k, a, p_.cols_a, b, p_.cols_b, 0.f,
                   data_out<T>(out[0]), p_.n, p_.samples, p_.rows_a * p_.cols_a, p_.rows_b * p_.cols_b,
                   p_.m * p_.n);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    auto scope = enter();
    cublasHandle_t h = cublas(ctx_.device_id);
    const T* dy = grad_out<T>(out[0]);
    const int64_t sa = p_.rows_a * p_.cols_a, sb = p_.rows_b * p_.cols_b, sy = p_.m * p_.n;
    if (prop[0]) {
      const T* b = data_in<T>(in[1]);
      T* da = grad_in<T>(in[0], accum[0]);
      const float beta = accum[0] ? 1.f : 0.f;
      if (!p_.ta)  // da (m x k) = dy op(b)^T
        gemm_row_major(h, st(), false, !p_.tb, p_.m, p_.k, p_.n, dy, p_.n, b, p_.cols_b, beta, da, p_.cols_a,
                       p_.samples, sy, sb, sa);
      else  // da (k x m) = op(b) dy^T
        gemm_row_major(h, st(), p_.tb, true, p_.k, p_.m, p_.n, b, p_.cols_b, dy, p_.n, beta, da, p_.cols_a,
                       p_.samples, sb, sy, sa);
    }
    if (prop[1]) {
      const T* a = data_in<T>(in[0]);
      T* db = grad_in<T>(in[1], accum[1]);
      const float beta = accum[1] ? 1.f : 0.f;
      if (!p_.tb)  // db (k x n) = op(a)^T dy
        gemm_row_major(h, st(), !p_.ta, false, p_.k, p_.n, p_.m, a, p_.cols_a, dy, p_.n, beta, db, p_.cols_b,
                       p_.samples, sa, sy, sb);
      else  // db (n x k) = dy^T op(a)
        gemm_row_major(h, st(), true, p_.ta, p_.n, p_.k, p_.m, dy, p_.n, a, p_.cols_a, beta, db, p_.cols_b,
                       p_.samples, sy, sa, sb);
    }
  }

 private:
  ops::BatchMatmulPlan p_;
};

}  // namespace

void register_linalg_kernels(OpRegistry& r) {
  add_float_and_half_kernels<CudaAffine>(r, "Affine");
  add_float_and_half_kernels<CudaBatchMatmul>(r, "BatchMatmul");
  add_float_and_half_kernels<CudaBinaryConnectAffine>(r, "BinaryConnectAffine");
  add_float_and_half_kernels<CudaBinaryWeightAffine>(r, "BinaryWeightAffine");
}

}  // namespace nn::cuda
