// CUDA BatchNormalization (float and half: x, y and their grads in T; statistics, parameters, running averages
// and their grads in float) with the CPU kernel's setup, statistics, running-average update and backward.
#include "cuda/kernels/pool_norm.hpp"
#include "cuda/ops/cuda_ops.hpp"
#include "ops/normalization/batch_norm_args.hpp"

namespace nn::cuda {

void register_batch_norm_kernels(OpRegistry& r);

namespace {

template <class T>
class CudaBatchNormalization : public CudaWithCpuSetup {
 public:
  CudaBatchNormalization(const OpSchema& s, const Context& c, const Attrs& a)
      : CudaWithCpuSetup(s, c, a), args_(attrs_) {}

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);  // input count, axes and parameter shapes are checked there
    beta_ = args_.no_bias ? -1 : 1;
    gamma_ = args_.no_scale ? -1 : (args_.no_bias ? 1 : 2);
    mean_ = int(in.size()) - 2;
    var_ = int(in.size()) - 1;
    const Shape& xs = in[0]->shape();
    const int axis = args_.axis(xs);
    dims_ = k::BnDims{};
    dims_.outer = shape_size(xs, 0, size_t(axis));
    dims_.channels = xs[size_t(axis)];
    dims_.inner = shape_size(xs, size_t(axis) + 1, xs.size());
    dims_.chunks = k::bn_partial_chunks(dims_.outer, dims_.channels, dims_.inner);
    per_channel_.reset();
    scratch_.reset();
    stats_ready_ = false;
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    allocate();
    const int64_t c = dims_.channels;
    const T* x = data_in<T>(in[0]);
    const float* beta = beta_ < 0 ? nullptr : data_in<float>(in[beta_]);
    const float* gamma = gamma_ < 0 ? nullptr : data_in<float>(in[gamma_]);
    float* scale = slot(kScale);
    float* shift = slot(kShift);
    if (args_.batch_stat) {
      float* mean = slot(kBatchMean);
      float* var = slot(kBatchVar);
      k::bn_batch_stats<T>(st(), dims_, x, scratch(), mean, var);
      float* running_mean = data_inout(in[mean_]);
      float* running_var = data_inout(in[var_]);
      float* mean_out = out.size() == 3 ? data_out<float>(out[1]) : nullptr;
      float* var_out = out.size() == 3 ? data_out<float>(out[2]) : nullptr;
      k::bn_finish_stats(st(), c, dims_.outer * dims_.inner, mean, var, running_mean, running_var,
                         args_.decay_rate, gamma, beta, args_.eps, scale, shift, mean_out, var_out);
      stats_ready_ = true;
    } else {
      const float* mean = data_in<float>(in[mean_]);
      const float* var = data_in<float>(in[var_]);
      k::bn_finish_stats(st(), c, dims_.outer * dims_.inner, mean, var, nullptr, nullptr, args_.decay_rate, gamma,
                         beta, args_.eps, scale, shift, nullptr, nullptr);
    }
    k::bn_normalize<T>(st(), dims_, x, scale, shift, data_out<T>(out[0]));
  }

  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    const bool want_beta = beta_ >= 0 && prop[beta_], want_gamma = gamma_ >= 0 && prop[gamma_];
    if (!prop[0] && !want_beta && !want_gamma && !prop[mean_] && !prop[var_]) return;
    auto scope = enter();
    NN_CHECK(!args_.batch_stat || stats_ready_)
        << "BatchNormalization: backward needs a forward first (batch_stat "
           "uses the batch statistics it computes)";
    allocate();
    const T* x = data_in<T>(in[0]);
    const T* dy = grad_out<T>(out[0]);
    const float* gamma = gamma_ < 0 ? nullptr : data_in<float>(in[gamma_]);
    const float* mean = args_.batch_stat ? slot(kBatchMean) : data_in<float>(in[mean_]);
    const float* var = args_.batch_stat ? slot(kBatchVar) : data_in<float>(in[var_]);
    k::BnGrads g;
    if (out.size() == 3) {
      g.dmean_out = grad_out<float>(out[1]);
      g.dvar_out = grad_out<float>(out[2]);
    }
    if (want_beta) g.dbeta = grad_in<float>(in[beta_], accum[beta_]), g.accum_beta = accum[beta_];
    if (want_gamma) g.dgamma = grad_in<float>(in[gamma_], accum[gamma_]), g.accum_gamma = accum[gamma_];
    if (prop[mean_]) g.dmean = grad_in<float>(in[mean_], accum[mean_]), g.accum_mean = accum[mean_];
    if (prop[var_]) g.dvar = grad_in<float>(in[var_], accum[var_]), g.accum_var = accum[var_];
    k::bn_backward_sums<T>(st(), dims_, x, dy, mean, scratch());
    k::bn_backward_coefficients(st(), dims_, args_.batch_stat, scratch(), gamma, var, args_.eps, g, slot(kDy),
                                slot(kXc), slot(kConst));
    if (!prop[0]) return;
    k::bn_backward_dx<T>(st(), dims_, x, dy, mean, slot(kDy), slot(kXc), slot(kConst), grad_in<T>(in[0], accum[0]),
                         accum[0]);
  }

 private:
  // Per-channel float arrays kept on the device (batch statistics live from forward to backward).
  enum Slot { kBatchMean, kBatchVar, kScale, kShift, kDy, kXc, kConst, kSlots };
  void allocate() {
    if (!per_channel_) per_channel_ = device_buffer(size_t(kSlots * dims_.channels) * sizeof(float));
    if (!scratch_) scratch_ = device_buffer(size_t(k::bn_scratch_doubles(dims_)) * sizeof(double));
  }
  float* slot(Slot s) const { return static_cast<float*>(per_channel_->ptr) + int64_t(s) * dims_.channels; }
  double* scratch() const { return static_cast<double*>(scratch_->ptr); }
  // The running statistics are updated in place: a float device copy that keeps the current values.
  float* data_inout(Variable* v) const {
    return static_cast<float*>(v->data()->cast_raw(ArrayKey{DType::kFloat32, dev()}, false));
  }

  const ops::BatchNormArgs args_;
  int beta_ = 1, gamma_ = 2, mean_ = 3, var_ = 4;  // input indices (-1: absent)
  k::BnDims dims_;
  std::shared_ptr<Buffer> per_channel_, scratch_;
  bool stats_ready_ = false;
};

}  // namespace

void register_batch_norm_kernels(OpRegistry& r) {
  add_float_and_half_kernels<CudaBatchNormalization>(r, "BatchNormalization");
}

}  // namespace nn::cuda
