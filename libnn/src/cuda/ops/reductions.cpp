// CUDA reductions over axes (float and __half storage): Sum, Mean, Max, Min and Prod, planned by the CPU
// kernels' make_reduce_plan (ops/detail/reduce.hpp).
#include <algorithm>

#include "cuda/ops/strided_copy.hpp"
#include "ops/detail/reduce.hpp"

namespace nn::cuda {

void register_reduction_kernels(OpRegistry& r);

namespace {

// The CPU kernels' plan of the op's reduction of x (axes, keep_dims).
ops::ReducePlan plan_of(const Shape& xs, const Attrs& attrs, const std::string& op) {
  check_rank(xs, op);
  return ops::make_reduce_plan(xs, attrs);
}

// Sum and Mean over axes (Mean scales by 1 / reduced count).
template <class T, bool kMean>
class CudaReduce : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    const Shape& xs = in[0]->shape();
    const ops::ReducePlan plan = plan_of(xs, attrs_, type());
    dims_ = reduce_dims(xs, plan.reduced);
    // Backward broadcasts dy over the reduced axes (source stride 0 there).
    const Shape strides = shape_strides(xs);
    back_ = k::StridedView{};
    back_.ndim = int(xs.size());
    int64_t out_stride = 1;
    for (int d = int(xs.size()) - 1; d >= 0; --d) {
      back_.shape[d] = xs[d];
      back_.dst_strides[d] = strides[d];
      back_.src_strides[d] = plan.reduced[d] ? 0 : out_stride;
      if (!plan.reduced[d]) out_stride *= xs[d];
    }
    scale_ = kMean && plan.reduce_size > 0 ? 1.f / float(plan.reduce_size) : 1.f;
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const T* x = data_in<T>(in[0]);
    k::reduce_sum(st(), dims_, x, data_out<T>(out[0]), scale_, false);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    const T* dy = grad_out<T>(out[0]);
    k::strided_copy(st(), back_, dy, grad_in<T>(in[0], accum[0]), scale_, accum[0]);
  }

 private:
  k::ReduceDims dims_;
  k::StridedView back_;
  float scale_ = 1.f;
};

template <class T>
using CudaSum = CudaReduce<T, false>;
template <class T>
using CudaMean = CudaReduce<T, true>;

// Max and Min (kMax): value and/or index outputs; the chosen input offsets are kept for backward. Index outputs
// are written as float even by the half kernel (indices above 2048 are not exact in half).
template <class T, bool kMax>
class CudaArgExtreme : public CudaCpuShaped {
 public:
  CudaArgExtreme(const OpSchema& s, const Context& c, const Attrs& a) : CudaCpuShaped(s, c, a), args_(attrs_) {}

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaCpuShaped::setup_impl(in, out);
    const Shape& xs = in[0]->shape();
    dims_ = reduce_dims(xs, plan_of(xs, attrs_, type()).reduced);
    // The CPU kernel gives -inf/+inf for empty reduced axes; this kernel has no such case yet.
    NN_CHECK_CODE(shape_size(xs) > 0 || dims_.outputs == 0, ErrorCode::kUnsupported)
        << type() << ": reducing empty axes of " << to_string(xs) << " is not supported on the GPU yet";
    selected_.reset();
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    if (!selected_) selected_ = device_buffer(size_t(std::max<int64_t>(dims_.outputs, 1)) * sizeof(int64_t));
    const bool only = args_.only_index;
    T* y = only ? nullptr : data_out<T>(out[0]);
    float* index = only ? data_out<float>(out[0]) : (out.size() > 1 ? data_out<float>(out[1]) : nullptr);
    k::arg_extreme_forward(st(), dims_, kMax, data_in<T>(in[0]), y, index, static_cast<int64_t*>(selected_->ptr));
  }
  // The value output's grad goes to the chosen element; the index output has none.
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    T* dx = grad_in_zeroed<T>(in[0], accum[0]);
    if (args_.only_index) return;
    NN_CHECK(selected_) << type() << ": backward before forward";
    k::scatter_selected(st(), dims_.outputs, static_cast<const int64_t*>(selected_->ptr), grad_out<T>(out[0]), dx);
  }

 private:
  ops::ArgExtremeArgs args_;
  k::ReduceDims dims_;
  std::shared_ptr<Buffer> selected_;
};

template <class T>
using CudaMax = CudaArgExtreme<T, true>;
template <class T>
using CudaMin = CudaArgExtreme<T, false>;

template <class T>
class CudaProd : public CudaCpuShaped {
 public:
  using CudaCpuShaped::CudaCpuShaped;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaCpuShaped::setup_impl(in, out);
    const Shape& xs = in[0]->shape();
    dims_ = reduce_dims(xs, plan_of(xs, attrs_, type()).reduced);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    k::prod_forward(st(), dims_, data_in<T>(in[0]), data_out<T>(out[0]));
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    k::prod_backward(st(), dims_, data_in<T>(in[0]), grad_out<T>(out[0]), grad_in<T>(in[0], accum[0]), accum[0]);
  }

 private:
  k::ReduceDims dims_;
};

}  // namespace

void register_reduction_kernels(OpRegistry& r) {
  add_float_and_half_kernels<CudaSum>(r, "Sum");
  add_float_and_half_kernels<CudaMean>(r, "Mean");
  add_float_and_half_kernels<CudaMax>(r, "Max");
  add_float_and_half_kernels<CudaMin>(r, "Min");
  add_float_and_half_kernels<CudaProd>(r, "Prod");
}

}  // namespace nn::cuda
