// CUDA Functions that move data: Reshape, Transpose, Slice, Concatenate, and the Sum/Mean reductions, for float
// and __half storage (T).
#include <climits>

#include "cuda/kernels/kernels.hpp"
#include "cuda/kernels/shape.hpp"
#include "cuda/ops/cuda_ops.hpp"
#include "ops/detail/reduce.hpp"

namespace nn::cuda {
namespace {

k::StridedView contiguous_view(const Shape& shape) {
  NN_CHECK(shape.size() <= size_t(k::kMaxDims)) << "CUDA kernels support at most " << k::kMaxDims << " dimensions";
  k::StridedView v;
  v.ndim = int(shape.size());
  const Shape strides = shape_strides(shape);
  for (int d = 0; d < v.ndim; ++d) {
    v.shape[d] = shape[d];
    v.src_strides[d] = v.dst_strides[d] = strides[d];
  }
  return v;
}

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
    k::StridedView back = view_;
    std::swap(back.src_strides, back.dst_strides);
    std::swap(back.src_offset, back.dst_offset);
    const T* dy = grad_out<T>(out[0]);
    const bool covers_all = out[0]->size() == in[0]->size();  // a permutation writes every dx element
    T* dx = covers_all ? grad_in<T>(in[0], accum[0]) : grad_in_zeroed<T>(in[0], accum[0]);
    k::strided_copy(st(), back, dy, dx, 1.f, accum[0] || !covers_all);
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

template <class T>
class CudaTranspose : public CudaViewFunction<T> {
 public:
  using CudaViewFunction<T>::CudaViewFunction;

 protected:
  k::StridedView make_view(const Shape& x, const Shape& y) override {
    k::StridedView v = contiguous_view(y);
    const Shape xs = shape_strides(x);
    auto axes = this->attrs_.get_ints("axes", {});
    for (int d = 0; d < v.ndim; ++d) v.src_strides[d] = xs[normalize_axis(axes[d], x.size(), "Transpose: axis")];
    return v;
  }
};

// Slice: the CPU setup validates; the view follows nnabla's rules (INT_MAX stands for None).
template <class T>
class CudaSlice : public CudaViewFunction<T> {
 public:
  using CudaViewFunction<T>::CudaViewFunction;

 protected:
  k::StridedView make_view(const Shape& x, const Shape& y) override {
    k::StridedView v = contiguous_view(y);
    const int nd = int(x.size());
    const Attrs& attrs = this->attrs_;
    auto start = attrs.has("start") ? attrs.get_ints("start") : std::vector<int64_t>(x.size(), 0);
    auto step = attrs.has("step") ? attrs.get_ints("step") : std::vector<int64_t>(x.size(), 1);
    start.insert(start.begin(), x.size() - start.size(), 0);
    step.insert(step.begin(), x.size() - step.size(), 1);
    const Shape strides = shape_strides(x);
    for (int d = 0; d < nd; ++d) {
      int64_t b = start[d], s = step[d] == INT_MAX ? 1 : step[d];
      if (b < 0) b += x[d];
      if (b == INT_MAX) b = s > 0 ? 0 : x[d] - 1;
      if (y[d] > 0) v.src_offset += b * strides[d];
      v.src_strides[d] = s * strides[d];
    }
    return v;
  }
};

// Concatenate: each input is copied into its block of the output along the axis.
template <class T>
class CudaConcatenate : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    T* y = data_out<T>(out[0]);
    int64_t offset = 0;
    for (Variable* x : in) {
      k::StridedView v = block_view(x->shape(), out[0]->shape(), offset);
      k::strided_copy(st(), v, data_in<T>(x), y, 1.f, false);
      offset += x->shape()[axis(out[0]->shape())];
    }
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    auto scope = enter();
    const T* dy = grad_out<T>(out[0]);
    int64_t offset = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      k::StridedView v = block_view(in[i]->shape(), out[0]->shape(), offset);
      offset += in[i]->shape()[axis(out[0]->shape())];
      if (!prop[i]) continue;
      std::swap(v.src_strides, v.dst_strides);
      std::swap(v.src_offset, v.dst_offset);
      k::strided_copy(st(), v, dy, grad_in<T>(in[i], accum[i]), 1.f, accum[i]);
    }
  }

 private:
  int axis(const Shape& y) const {
    return normalize_axis(attrs_.get_int("axis", int64_t(y.size()) - 1), y.size(), "Concatenate: axis");
  }
  // Source: input x contiguous; destination: its block of y starting at `offset` along the axis.
  k::StridedView block_view(const Shape& x, const Shape& y, int64_t offset) const {
    k::StridedView v = contiguous_view(x);
    const Shape ys = shape_strides(y);
    for (int d = 0; d < v.ndim; ++d) v.dst_strides[d] = ys[d];
    v.dst_offset = offset * ys[axis(y)];
    return v;
  }
};

// Sum and Mean over axes (Mean scales by 1 / reduced count).
template <class T, bool kMean>
class CudaReduce : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);
    const Shape& xs = in[0]->shape();
    NN_CHECK(xs.size() <= size_t(k::kMaxDims)) << type() << ": the CUDA kernel supports at most 8 dimensions";
    auto plan = ops::make_reduce_plan(xs, attrs_.get_ints("axes", {}), attrs_.has("axes"),
                                      attrs_.get_bool("keep_dims"));
    dims_ = k::ReduceDims{};
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
    for (size_t d = 0; d < xs.size(); ++d) {
      if (plan.reduced[d]) {
        dims_.reduced_shape[dims_.reduced_ndim] = xs[d];
        dims_.reduced_strides[dims_.reduced_ndim++] = strides[d];
      } else {
        dims_.kept_shape[dims_.kept_ndim] = xs[d];
        dims_.kept_strides[dims_.kept_ndim++] = strides[d];
      }
    }
    dims_.outputs = plan.out_size;
    dims_.reduced = plan.reduce_size;
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

}  // namespace

void register_array_kernels(OpRegistry& r) {
  add_float_and_half_kernels<CudaReshape>(r, "Reshape");
  add_float_and_half_kernels<CudaTranspose>(r, "Transpose");
  add_float_and_half_kernels<CudaSlice>(r, "Slice");
  add_float_and_half_kernels<CudaConcatenate>(r, "Concatenate");
  add_float_and_half_kernels<CudaSum>(r, "Sum");
  add_float_and_half_kernels<CudaMean>(r, "Mean");
}

}  // namespace nn::cuda
