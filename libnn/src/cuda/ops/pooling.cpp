// CUDA Max/Average/Sum pooling, GlobalAveragePooling and Unpooling (float and half) with the CPU kernels'
// setup and window rules; registers BatchNormalization (batch_norm.cpp) too.
#include "cuda/kernels/pool_norm.hpp"
#include "cuda/ops/cuda_ops.hpp"
#include "ops/pooling/pooling_common.hpp"

namespace nn::cuda {

void register_batch_norm_kernels(OpRegistry& r);  // ops/batch_norm.cpp

namespace {

// The kernels' view of the CPU kernel's pooling plan.
k::PoolDims pool_dims(const ops::PoolPlan& p) {
  k::PoolDims d;
  d.nd = int(p.kernel.size());
  d.maps = p.maps;
  d.in_size = p.in_size;
  d.out_size = p.out_size;
  for (int a = 0; a < d.nd; ++a) {
    d.in[a] = p.in[size_t(a)];
    d.out[a] = p.out[size_t(a)];
    d.kernel[a] = p.kernel[size_t(a)];
    d.stride[a] = p.stride[size_t(a)];
    d.pad[a] = p.pad[size_t(a)];
  }
  return d;
}

template <class T>
class CudaMaxPooling : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    dims_ = pool_dims(ops::plan_pooling(type(), in[0]->shape(), attrs_));
    argmax_.reset();
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    if (!argmax_) argmax_ = device_buffer(size_t(dims_.maps * dims_.out_size) * sizeof(int32_t));
    const T* x = data_in<T>(in[0]);
    k::max_pool_forward<T>(st(), dims_, x, data_out<T>(out[0]), static_cast<int32_t*>(argmax_->ptr));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    NN_CHECK(argmax_) << "MaxPooling: backward needs a forward first (it records the argmax)";
    const T* dy = grad_out<T>(out[0]);
    k::max_pool_backward<T>(st(), dims_, static_cast<const int32_t*>(argmax_->ptr), dy,
                            grad_in<T>(in[0], accum[0]), accum[0]);
  }

 private:
  k::PoolDims dims_;
  std::shared_ptr<Buffer> argmax_;  // per output: offset of the max within its map (-1: empty window)
};

// AveragePooling (kAverage) and SumPooling.
template <class T, bool kAverage>
class CudaWindowSum : public CudaWithCpuSetup {
 public:
  CudaWindowSum(const OpSchema& s, const Context& c, const Attrs& a)
      : CudaWithCpuSetup(s, c, a), including_pad_(kAverage && ops::including_pad(attrs_)) {}

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    dims_ = pool_dims(ops::plan_pooling(type(), in[0]->shape(), attrs_));
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const T* x = data_in<T>(in[0]);
    k::window_sum_forward<T>(st(), dims_, kAverage, including_pad_, x, data_out<T>(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    const T* dy = grad_out<T>(out[0]);
    k::window_sum_backward<T>(st(), dims_, kAverage, including_pad_, dy, grad_in<T>(in[0], accum[0]), accum[0]);
  }

 private:
  bool including_pad_;
  k::PoolDims dims_;
};
template <class T>
using CudaAveragePooling = CudaWindowSum<T, true>;
template <class T>
using CudaSumPooling = CudaWindowSum<T, false>;

template <class T>
class CudaGlobalAveragePooling : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    const Shape& x = in[0]->shape();
    maps_ = x[0] * x[1];
    area_ = shape_size(x, 2, x.size());
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const T* x = data_in<T>(in[0]);
    k::global_average_forward<T>(st(), maps_, area_, x, data_out<T>(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    const T* dy = grad_out<T>(out[0]);
    k::global_average_backward<T>(st(), maps_, area_, dy, grad_in<T>(in[0], accum[0]), accum[0]);
  }

 private:
  int64_t maps_ = 0, area_ = 0;
};

template <class T>
class CudaUnpooling : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);  // checks kernel against x
    const Shape& x = in[0]->shape();
    const Shape kernel = ops::unpooling_kernel(x, attrs_);
    NN_CHECK(kernel.size() <= size_t(k::kMaxPoolDims))
        << "Unpooling: kernel " << to_string(kernel) << " has more than " << k::kMaxPoolDims << " axes on CUDA";
    const size_t first = x.size() - kernel.size();
    dims_ = k::PoolDims{};
    dims_.nd = int(kernel.size());
    dims_.maps = shape_size(x, 0, first);
    dims_.in_size = dims_.out_size = 1;
    for (int a = 0; a < dims_.nd; ++a) {
      dims_.in[a] = x[first + size_t(a)];
      dims_.kernel[a] = kernel[size_t(a)];
      dims_.out[a] = dims_.in[a] * dims_.kernel[a];
      dims_.in_size *= dims_.in[a];
      dims_.out_size *= dims_.out[a];
    }
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const T* x = data_in<T>(in[0]);
    k::unpool_forward<T>(st(), dims_, x, data_out<T>(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    const T* dy = grad_out<T>(out[0]);
    k::unpool_backward<T>(st(), dims_, dy, grad_in<T>(in[0], accum[0]), accum[0]);
  }

 private:
  k::PoolDims dims_;
};

}  // namespace

void register_pool_norm_kernels(OpRegistry& r) {
  add_float_and_half_kernels<CudaMaxPooling>(r, "MaxPooling");
  add_float_and_half_kernels<CudaAveragePooling>(r, "AveragePooling");
  add_float_and_half_kernels<CudaSumPooling>(r, "SumPooling");
  add_float_and_half_kernels<CudaGlobalAveragePooling>(r, "GlobalAveragePooling");
  add_float_and_half_kernels<CudaUnpooling>(r, "Unpooling");
  register_batch_norm_kernels(r);
}

}  // namespace nn::cuda
