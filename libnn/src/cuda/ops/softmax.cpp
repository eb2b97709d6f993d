// CUDA Softmax, LogSoftmax and SoftmaxCrossEntropy along an axis (setup and checks are the CPU kernels').
#include "cuda/kernels/kernels.hpp"
#include "cuda/ops/cuda_ops.hpp"

namespace nn::cuda {
namespace {

template <bool kLog>
class CudaSoftmax : public CudaAxisOp {
 public:
  using CudaAxisOp::CudaAxisOp;

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const float* x = data_in(in[0]);
    k::softmax_forward(st(), split_.outer, split_.size, split_.inner, x, data_out(out[0]), kLog);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    const float* y = data_in(out[0]);
    const float* dy = grad_out(out[0]);
    k::softmax_backward(st(), split_.outer, split_.size, split_.inner, y, dy, grad_in(in[0], accum[0]), kLog,
                        accum[0]);
  }
};

class CudaSoftmaxCrossEntropy : public CudaAxisOp {
 public:
  using CudaAxisOp::CudaAxisOp;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaAxisOp::setup_impl(in, out);
    log_p_.reset();
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    check_labels(in[1]);
    if (!log_p_) log_p_ = device_buffer(size_t(in[0]->size()) * sizeof(float));
    const float* x = data_in(in[0]);
    const float* t = data_in(in[1]);
    k::softmax_cross_entropy_forward(st(), split_.outer, split_.size, split_.inner, x, t,
                                     static_cast<float*>(log_p_->ptr), data_out(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    NN_CHECK(!prop[1]) << type() << ": no gradient with respect to the label (input 1)";
    if (!prop[0]) return;
    auto scope = enter();
    NN_CHECK(log_p_) << type() << ": backward before forward";
    const float* t = data_in(in[1]);
    const float* dy = grad_out(out[0]);
    k::softmax_cross_entropy_backward(st(), split_.outer, split_.size, split_.inner,
                                      static_cast<const float*>(log_p_->ptr), t, dy, grad_in(in[0], accum[0]),
                                      accum[0]);
  }

 private:
  // Labels are read on the host (they are small) so a bad one fails with the CPU kernel's message.
  void check_labels(Variable* label) const {
    const float* t = label->data()->get<float>();
    for (int64_t l = 0; l < label->size(); ++l) {
      const int64_t k = int64_t(t[l]);
      NN_CHECK(k >= 0 && k < split_.size)
          << type() << ": label " << t[l] << " is outside [0, " << split_.size << ")";
    }
  }
  std::shared_ptr<Buffer> log_p_;
};

}  // namespace

void register_softmax_kernels(OpRegistry& r) {
  add_float_kernel<CudaSoftmax<false>>(r, "Softmax");
  add_float_kernel<CudaSoftmax<true>>(r, "LogSoftmax");
  add_float_kernel<CudaSoftmaxCrossEntropy>(r, "SoftmaxCrossEntropy");
}

}  // namespace nn::cuda
