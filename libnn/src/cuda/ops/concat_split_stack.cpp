// CUDA Concatenate, Split and Stack (float and __half storage): block copies along the CPU kernels' axis
// (ops/array/array_args.hpp).
#include "cuda/ops/strided_copy.hpp"
#include "ops/array/array_args.hpp"

namespace nn::cuda {

void register_concat_split_stack_kernels(OpRegistry& r);

namespace {

// Concatenate: each input is copied into its block of the output along the axis.
template <class T>
class CudaConcatenate : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    axis_ = ops::concat_axis(attrs_, out[0]->shape());
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    T* y = data_out<T>(out[0]);
    int64_t offset = 0;
    for (Variable* x : in) {
      k::StridedView v = block_view(x->shape(), out[0]->shape(), offset);
      k::strided_copy(st(), v, data_in<T>(x), y, 1.f, false);
      offset += x->shape()[size_t(axis_)];
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    auto scope = enter();
    const T* dy = grad_out<T>(out[0]);
    int64_t offset = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      const k::StridedView v = block_view(in[i]->shape(), out[0]->shape(), offset);
      offset += in[i]->shape()[size_t(axis_)];
      if (!prop[i]) continue;
      k::strided_copy(st(), reversed(v), dy, grad_in<T>(in[i], accum[i]), 1.f, accum[i]);
    }
  }

 private:
  // Source: input x contiguous; destination: its block of y starting at `offset` along the axis.
  k::StridedView block_view(const Shape& x, const Shape& y, int64_t offset) const {
    check_rank(x, type());
    k::StridedView v = contiguous_view(x);
    const Shape ys = shape_strides(y);
    for (int d = 0; d < v.ndim; ++d) v.dst_strides[d] = ys[d];
    v.dst_offset = offset * ys[size_t(axis_)];
    return v;
  }
  int axis_ = 0;
};

// Split: output k is block k along the axis (the axis removed).
template <class T>
class CudaSplit : public CudaCpuShaped {
 public:
  using CudaCpuShaped::CudaCpuShaped;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaCpuShaped::setup_impl(in, out);
    const Shape& xs = in[0]->shape();
    const int axis = ops::split_axis(attrs_, xs);
    outer_ = shape_size(xs, 0, axis);
    n_ = xs[axis];
    inner_ = shape_size(xs, axis + 1, xs.size());
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const T* x = data_in<T>(in[0]);
    for (int64_t k = 0; k < n_; ++k)
      k::strided_copy(st(), block_of(outer_, n_, inner_, k), x, data_out<T>(out[k]), 1.f, false);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    T* dx = grad_in<T>(in[0], accum[0]);  // the blocks cover dx
    for (int64_t k = 0; k < n_; ++k)
      k::strided_copy(st(), reversed(block_of(outer_, n_, inner_, k)), grad_out<T>(out[k]), dx, 1.f, accum[0]);
  }

 private:
  int64_t outer_ = 1, n_ = 0, inner_ = 1;
};

// Stack: input k becomes block k along the new axis.
template <class T>
class CudaStack : public CudaCpuShaped {
 public:
  using CudaCpuShaped::CudaCpuShaped;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaCpuShaped::setup_impl(in, out);
    const Shape& xs = in[0]->shape();
    const int64_t axis = ops::stack_axis(attrs_, xs);
    outer_ = shape_size(xs, 0, size_t(axis));
    inner_ = shape_size(xs, size_t(axis), xs.size());
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    T* y = data_out<T>(out[0]);
    const int64_t n = int64_t(in.size());
    for (int64_t k = 0; k < n; ++k)
      k::strided_copy(st(), reversed(block_of(outer_, n, inner_, k)), data_in<T>(in[k]), y, 1.f, false);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    auto scope = enter();
    const T* dy = grad_out<T>(out[0]);
    const int64_t n = int64_t(in.size());
    for (int64_t k = 0; k < n; ++k)
      if (prop[k])
        k::strided_copy(st(), block_of(outer_, n, inner_, k), dy, grad_in<T>(in[k], accum[k]), 1.f, accum[k]);
  }

 private:
  int64_t outer_ = 1, inner_ = 1;
};

}  // namespace

void register_concat_split_stack_kernels(OpRegistry& r) {
  add_float_and_half_kernels<CudaConcatenate>(r, "Concatenate");
  add_float_and_half_kernels<CudaSplit>(r, "Split");
  add_float_and_half_kernels<CudaStack>(r, "Stack");
}

}  // namespace nn::cuda
