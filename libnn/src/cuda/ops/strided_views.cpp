// CUDA Functions whose output is one strided view of an input, for float and __half storage (T): Reshape,
// Transpose, Slice, Flip, Broadcast and BroadcastTo. The views are the CPU kernels' (ops/array/strided.hpp).
#include "cuda/ops/strided_copy.hpp"

namespace nn::cuda {

void register_strided_view_kernels(OpRegistry& r);

namespace {

// y = view of x (view's src side over x, dst side contiguous over y); backward scatters dy back.
template <class T>
class CudaViewFunction : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  virtual k::StridedView make_view(const Shape& x_shape, const Shape& y_shape) = 0;
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    view_ = make_view(in[0]->shape(), out[0]->shape());
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const T* x = data_in<T>(in[0]);
    k::strided_copy(st(), view_, x, data_out<T>(out[0]), 1.f, false);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    const T* dy = grad_out<T>(out[0]);
    const bool covers_all = out[0]->size() == in[0]->size();  // a permutation writes every dx element
    T* dx = covers_all ? grad_in<T>(in[0], accum[0]) : grad_in_zeroed<T>(in[0], accum[0]);
    k::strided_copy(st(), reversed(view_), dy, dx, 1.f, accum[0] || !covers_all);
  }
  k::StridedView view_;
};

template <class T>
class CudaReshape : public CudaViewFunction<T> {
 public:
  using CudaViewFunction<T>::CudaViewFunction;

 protected:
  // A flat copy: any rank (the CPU kernel has no rank limit).
  k::StridedView make_view(const Shape&, const Shape& y) override { return contiguous_view({shape_size(y)}); }
};

// Transpose, Slice and Flip: the copy through the CPU kernel's view of x.
using CpuView = ops::StridedView (*)(const Attrs&, const Shape&);
template <class T, CpuView kView>
class CudaCpuView : public CudaViewFunction<T> {
 public:
  using CudaViewFunction<T>::CudaViewFunction;

 protected:
  k::StridedView make_view(const Shape& x, const Shape&) override {
    return device_view(kView(this->attrs_, x), this->type());
  }
};
template <class T>
using CudaTranspose = CudaCpuView<T, ops::transpose_view>;
template <class T>
using CudaSlice = CudaCpuView<T, ops::slice_view>;
template <class T>
using CudaFlip = CudaCpuView<T, ops::flip_view>;

// Broadcast and BroadcastTo: a copy with stride 0 on repeated axes; backward sums over those axes.
template <class T>
class CudaBroadcastBase : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  virtual int source_input() const { return 0; }
  virtual ops::StridedView cpu_view(const Variables& in) const = 0;
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    const ops::StridedView v = cpu_view(in);
    view_ = device_view(v, type());
    std::vector<bool> repeated(v.shape.size());
    for (size_t d = 0; d < v.shape.size(); ++d) repeated[d] = v.stride[d] == 0;
    back_ = reduce_dims(v.shape, repeated);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    k::strided_copy(st(), view_, data_in<T>(in[source_input()]), data_out<T>(out[0]), 1.f, false);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    auto scope = enter();
    for (size_t i = 0; i < in.size(); ++i) {
      if (!prop[i]) continue;
      if (int(i) == source_input())
        k::reduce_sum(st(), back_, grad_out<T>(out[0]), grad_in<T>(in[i], accum[i]), 1.f, accum[i]);
      else
        grad_in_zeroed<T>(in[i], accum[i]);  // inputs read only for their shape get zero gradient
    }
  }

  k::StridedView view_;
  k::ReduceDims back_;
};

template <class T>
class CudaBroadcast : public CudaBroadcastBase<T> {
 public:
  using CudaBroadcastBase<T>::CudaBroadcastBase;

 protected:
  ops::StridedView cpu_view(const Variables& in) const override {
    return ops::broadcast_view(this->attrs_, in[0]->shape());
  }
};

template <class T>
class CudaBroadcastTo : public CudaBroadcastBase<T> {
 public:
  using CudaBroadcastBase<T>::CudaBroadcastBase;

 protected:
  int source_input() const override { return 1; }
  ops::StridedView cpu_view(const Variables& in) const override {
    return ops::broadcast_to_view(this->attrs_, in[0]->shape(), in[1]->shape());
  }
};

}  // namespace

void register_strided_view_kernels(OpRegistry& r) {
  add_float_and_half_kernels<CudaReshape>(r, "Reshape");
  add_float_and_half_kernels<CudaTranspose>(r, "Transpose");
  add_float_and_half_kernels<CudaSlice>(r, "Slice");
  add_float_and_half_kernels<CudaFlip>(r, "Flip");
  add_float_and_half_kernels<CudaBroadcast>(r, "Broadcast");
  add_float_and_half_kernels<CudaBroadcastTo>(r, "BroadcastTo");
}

}  // namespace nn::cuda
