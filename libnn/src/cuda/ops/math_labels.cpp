// CUDA kernels of the ops that read integer labels or indices (held in float arrays): CategoricalCrossEntropy,
// TopNError, Embed and OneHot. Labels are checked on the host (they are small) so that a bad one fails with
// the CPU kernel's message before any kernel reads it.
#include <cmath>

#include "cuda/kernels/math.hpp"
#include "cuda/ops/cuda_ops.hpp"
#include "ops/array/array_args.hpp"
#include "ops/validation/top_n_error_args.hpp"

namespace nn::cuda {
namespace {

// The label of every line must lie in [0, classes); `op` prefixes the CPU kernels' message.
void check_labels(Variable* label, int64_t classes, const std::string& op) {
  const float* t = label->data()->get<float>();
  for (int64_t l = 0; l < label->size(); ++l) {
    const auto k = int64_t(t[l]);
    NN_CHECK(k >= 0 && k < classes) << op << ": label " << t[l] << " is outside [0, " << classes << ")";
  }
}

// x (..., C, ...) with a label of size 1 along `axis` (default: the last axis).
using CudaLabelOp = CudaAxisOp;

// y = -log(max(x[label], FLT_MIN)) along axis; no gradient for the label.
class CudaCategoricalCrossEntropy : public CudaLabelOp {
 public:
  using CudaLabelOp::CudaLabelOp;

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    check_labels(in[1], split_.size, type());
    const float* x = data_in(in[0]);
    const float* t = data_in(in[1]);
    k::categorical_cross_entropy_forward(st(), split_.outer, split_.size, split_.inner, x, t, data_out(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    NN_CHECK(!prop[1]) << type() << ": no gradient with respect to the label (input 1)";
    if (!prop[0]) return;
    auto scope = enter();
    const float* x = data_in(in[0]);
    const float* t = data_in(in[1]);
    const float* dy = grad_out(out[0]);
    k::categorical_cross_entropy_backward(st(), split_.outer, split_.size, split_.inner, x, t, dy,
                                          grad_in_zeroed(in[0], accum[0]));
  }
};

// 1 where the label's score is not among the n largest along axis; forward-only (zero gradients).
class CudaTopNError : public CudaLabelOp {
 public:
  using CudaLabelOp::CudaLabelOp;

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    check_labels(in[1], split_.size, "TopNError");
    const float* x = data_in(in[0]);
    const float* t = data_in(in[1]);
    k::top_n_error_forward(st(), split_.outer, split_.size, split_.inner, x, t, ops::top_n(attrs_),
                           data_out(out[0]));
  }
  void backward_impl(const Variables& in, const Variables&, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    auto scope = enter();
    for (size_t i = 0; i < in.size(); ++i)
      if (prop[i] && !accum[i]) grad_in_zeroed(in[i], false);
  }
};

// y[i, ...] = w[x[i], ...]; the gradient goes to w only (atomic adds over repeated indices).
class CudaEmbed : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    const Shape& w = in[1]->shape();
    rows_ = w[0];
    row_ = shape_size(w, 1, w.size());
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const float* idx = in[0]->data()->get<float>();
    for (int64_t i = 0; i < in[0]->size(); ++i) {
      const auto k = int64_t(idx[i]);
      NN_CHECK(k >= 0 && k < rows_) << "Embed: index " << idx[i] << " out of range [0, " << rows_ << ")";
    }
    const float* x = data_in(in[0]);
    const float* w = data_in(in[1]);
    k::embed_forward(st(), in[0]->size(), rows_, row_, x, w, data_out(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    NN_CHECK(!prop[0]) << "Embed: the index input x cannot receive a gradient";
    if (!prop[1]) return;
    auto scope = enter();
    const float* x = data_in(in[0]);
    const float* dy = grad_out(out[0]);
    k::embed_backward(st(), in[0]->size(), rows_, row_, x, dy, grad_in_zeroed(in[1], accum[1]));
  }

 private:
  int64_t rows_ = 0, row_ = 0;
};

// One-hot encoding of groups of indices (the last input axis); not differentiable.
class CudaOneHot : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    shape_ = ops::one_hot_shape(attrs_);
    NN_CHECK(shape_.size() <= size_t(k::kMaxDims))
        << "OneHot: the CUDA kernel supports at most " << k::kMaxDims << " one-hot dimensions";
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const int64_t dim = int64_t(shape_.size());
    const int64_t num = dim ? in[0]->size() / dim : 0;
    const float* idx = in[0]->data()->get<float>();
    for (int64_t i = 0; i < num * dim; ++i) {
      const int64_t v = int64_t(std::lround(idx[i]));
      const int64_t limit = shape_[size_t(i % dim)];
      NN_CHECK(v >= 0 && v < limit) << "OneHot: index " << v << " at position " << i << " is outside [0, " << limit
                                    << ") (shape " << to_string(shape_) << ")";
    }
    k::OneHotShape shape;
    shape.dim = int(dim);
    for (int64_t d = 0; d < dim; ++d) shape.size[d] = shape_[size_t(d)];
    const float* x = data_in(in[0]);
    float* y = data_out(out[0]);
    NN_CUDA_CHECK(cudaMemsetAsync(y, 0, size_t(out[0]->size()) * sizeof(float), st()));
    k::one_hot_forward(st(), num, shape, shape_size(shape_), x, y);
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

 private:
  Shape shape_;
};

}  // namespace

void register_math_label_kernels(OpRegistry& r) {
  add_float_kernel<CudaCategoricalCrossEntropy>(r, "CategoricalCrossEntropy");
  add_float_kernel<CudaTopNError>(r, "TopNError");
  add_float_kernel<CudaEmbed>(r, "Embed");
  add_float_kernel<CudaOneHot>(r, "OneHot");
}

}  // namespace nn::cuda
