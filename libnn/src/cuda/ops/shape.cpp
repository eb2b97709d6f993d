// CUDA Functions for array shape ops and reductions: Split, Stack, Flip, Broadcast, BroadcastTo, Pad, Max, Min,
// Prod (float and __half storage) and RandomFlip, RandomShift (float).
#include <algorithm>
#include <cstdlib>

#include "cuda/kernels/shape.hpp"
#include "cuda/ops/cuda_ops.hpp"
#include "nn/core/random.hpp"
#include "ops/detail/reduce.hpp"
#include "ops/stochastic/remap_tables.hpp"

namespace nn::cuda {
namespace {

void check_rank(const Shape& s, const std::string& op) {
  NN_CHECK(s.size() <= size_t(k::kMaxDims))
      << op << ": the CUDA kernel supports at most " << k::kMaxDims << " dimensions, not " << to_string(s);
}

// The identity copy of a contiguous array of shape s (both sides contiguous).
k::StridedView contiguous_copy(const Shape& s) {
  k::StridedView v;
  v.ndim = int(s.size());
  const Shape strides = shape_strides(s);
  for (int d = 0; d < v.ndim; ++d) {
    v.shape[d] = s[d];
    v.src_strides[d] = v.dst_strides[d] = strides[d];
  }
  return v;
}

// The view with source and destination exchanged (a gather turned into the matching scatter).
k::StridedView reversed(k::StridedView v) {
  std::swap(v.src_strides, v.dst_strides);
  std::swap(v.src_offset, v.dst_offset);
  return v;
}

// Block `k` of n along the middle axis of an (outer, n, inner) array, copied to or from a contiguous
// (outer, inner) array: the source side is the block, the destination the contiguous array.
k::StridedView block_of(int64_t outer, int64_t n, int64_t inner, int64_t k) {
  k::StridedView v;
  v.ndim = 2;
  v.shape[0] = outer;
  v.shape[1] = inner;
  v.src_strides[0] = n * inner;
  v.src_strides[1] = 1;
  v.dst_strides[0] = inner;
  v.dst_strides[1] = 1;
  v.src_offset = k * inner;
  return v;
}

// Sums of x (shape xs) over the axes flagged in `reduced`; outputs in C order of the kept axes.
k::ReduceDims reduce_dims(const Shape& xs, const std::vector<bool>& reduced) {
  k::ReduceDims d;
  const Shape strides = shape_strides(xs);
  for (size_t a = 0; a < xs.size(); ++a) {
    if (reduced[a]) {
      d.reduced_shape[d.reduced_ndim] = xs[a];
      d.reduced_strides[d.reduced_ndim++] = strides[a];
      d.reduced *= xs[a];
    } else {
      d.kept_shape[d.kept_ndim] = xs[a];
      d.kept_strides[d.kept_ndim++] = strides[a];
      d.outputs *= xs[a];
    }
  }
  return d;
}

// CudaWithCpuSetup that also takes the CPU kernel's output count and stochastic flag.
class CudaCpuShaped : public CudaWithCpuSetup {
 public:
  using CudaWithCpuSetup::CudaWithCpuSetup;
  int num_outputs(const std::vector<Shape>& input_shapes) const override {
    return cpu_->num_outputs(input_shapes);
  }
  bool is_stochastic() const override { return cpu_->is_stochastic(); }
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
    const int axis = normalize_axis(attrs_.get_int("axis"), xs.size(), "Split: axis");
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
    int64_t axis = attrs_.get_int("axis");
    if (axis < 0) axis += int64_t(xs.size()) + 1;
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

// Flip: a copy reading the flipped axes backwards; backward is the same permutation in reverse.
template <class T>
class CudaFlip : public CudaCpuShaped {
 public:
  using CudaCpuShaped::CudaCpuShaped;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaCpuShaped::setup_impl(in, out);
    const Shape& xs = in[0]->shape();
    check_rank(xs, type());
    view_ = contiguous_copy(xs);
    std::vector<bool> flipped(xs.size(), false);
    for (int64_t a : attrs_.get_ints("axes", {int64_t(xs.size()) - 1}))
      flipped[normalize_axis(a, xs.size(), "Flip: axis")] = true;
    for (size_t d = 0; d < xs.size(); ++d) {
      if (!flipped[d] || xs[d] == 0) continue;
      view_.src_offset += (xs[d] - 1) * view_.src_strides[d];
      view_.src_strides[d] = -view_.src_strides[d];
    }
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    k::strided_copy(st(), view_, data_in<T>(in[0]), data_out<T>(out[0]), 1.f, false);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    k::strided_copy(st(), reversed(view_), grad_out<T>(out[0]), grad_in<T>(in[0], accum[0]), 1.f, accum[0]);
  }

 private:
  k::StridedView view_;
};

// Broadcast and BroadcastTo: a copy with stride 0 on repeated axes; backward sums over those axes.
template <class T>
class CudaBroadcastBase : public CudaCpuShaped {
 public:
  using CudaCpuShaped::CudaCpuShaped;

 protected:
  virtual int source_input() const { return 0; }
  // Given the output shape and the source strides per output axis (0: repeated), fills view_ and back_.
  void plan(const Shape& ys, const std::vector<int64_t>& src_strides) {
    check_rank(ys, type());
    view_ = contiguous_copy(ys);
    std::vector<bool> repeated(ys.size());
    for (size_t d = 0; d < ys.size(); ++d) {
      view_.src_strides[d] = src_strides[d];
      repeated[d] = src_strides[d] == 0;
    }
    back_ = reduce_dims(ys, repeated);
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
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaCpuShaped::setup_impl(in, out);
    const Shape& xs = in[0]->shape();
    const Shape& ys = out[0]->shape();
    const Shape xstrides = shape_strides(xs);
    // Size-1 axes kept at size 1 keep stride 0 too: they hold one element either way.
    std::vector<int64_t> strides(ys.size(), 0);
    for (size_t d = 0; d < xs.size(); ++d) strides[d] = xs[d] == ys[d] && xs[d] != 1 ? xstrides[d] : 0;
    this->plan(ys, strides);
  }
};

template <class T>
class CudaBroadcastTo : public CudaBroadcastBase<T> {
 public:
  using CudaBroadcastBase<T>::CudaBroadcastBase;

 protected:
  int source_input() const override { return 1; }
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaCpuShaped::setup_impl(in, out);
    const Shape& xs = in[0]->shape();
    const Shape& ys = in[1]->shape();
    int64_t axis = this->attrs_.get_int("axis");
    if (axis < 0) axis = int64_t(xs.size() - ys.size());
    const Shape ystrides = shape_strides(ys);
    std::vector<int64_t> strides(xs.size(), 0);
    for (size_t i = 0; i < ys.size(); ++i) strides[size_t(axis) + i] = ys[i] == 1 ? 0 : ystrides[i];
    this->plan(xs, strides);
  }
};

// Max and Min (kMax): value and/or index outputs; the chosen input offsets are kept for backward. Index outputs
// are written as float even by the half kernel (indices above 2048 are not exact in half).
template <class T, bool kMax>
class CudaArgExtreme : public CudaCpuShaped {
 public:
  using CudaCpuShaped::CudaCpuShaped;

 protected:
  bool only_index() const { return attrs_.get_bool("only_index"); }
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaCpuShaped::setup_impl(in, out);
    const Shape& xs = in[0]->shape();
    check_rank(xs, type());
    auto plan = ops::make_reduce_plan(xs, attrs_.get_ints("axes", {}), attrs_.has("axes"),
                                      attrs_.get_bool("keep_dims"));
    dims_ = reduce_dims(xs, plan.reduced);
    selected_.reset();
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    if (!selected_) selected_ = device_buffer(size_t(std::max<int64_t>(dims_.outputs, 1)) * sizeof(int64_t));
    const bool only = only_index();
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
    if (only_index()) return;
    NN_CHECK(selected_) << type() << ": backward before forward";
    k::scatter_selected(st(), dims_.outputs, static_cast<const int64_t*>(selected_->ptr), grad_out<T>(out[0]), dx);
  }

 private:
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
    check_rank(xs, type());
    auto plan = ops::make_reduce_plan(xs, attrs_.get_ints("axes", {}), attrs_.has("axes"),
                                      attrs_.get_bool("keep_dims"));
    dims_ = reduce_dims(xs, plan.reduced);
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

// Per-axis index tables (output index -> input index, -1 for a constant) of several samples, with their
// inverse lists, kept on the host and uploaded to the device once per build.
class RemapTables {
 public:
  using Tables = std::vector<std::vector<int64_t>>;  // per axis

  void build(const Shape& in_shape, const Shape& out_shape, const std::vector<Tables>& samples) {
    NN_CHECK(in_shape.size() <= size_t(k::kMaxDims))
        << "the CUDA remap kernel supports at most " << k::kMaxDims << " dimensions";
    dims_ = k::RemapDims{};
    dims_.ndim = int(in_shape.size());
    dims_.samples = int64_t(samples.size());
    for (int a = 0; a < dims_.ndim; ++a) {
      dims_.in_shape[a] = in_shape[a];
      dims_.out_shape[a] = out_shape[a];
      dims_.forward_start[a] = dims_.forward_size;
      dims_.forward_size += out_shape[a];
      dims_.first_start[a] = dims_.first_size;
      dims_.first_size += in_shape[a] + 1;
    }
    dims_.sources_size = dims_.forward_size;
    const int64_t per_sample = 2 * dims_.forward_size + dims_.first_size;
    host_.assign(size_t(std::max<int64_t>(dims_.samples * per_sample, 1)), 0);
    int64_t* forward = host_.data();
    int64_t* first = forward + dims_.samples * dims_.forward_size;
    int64_t* sources = first + dims_.samples * dims_.first_size;
    for (int64_t s = 0; s < dims_.samples; ++s) {
      for (int a = 0; a < dims_.ndim; ++a) {
        const std::vector<int64_t>& table = samples[size_t(s)][size_t(a)];
        NN_CHECK(int64_t(table.size()) == out_shape[a]) << "remap table size mismatch";
        std::copy(table.begin(), table.end(), forward + s * dims_.forward_size + dims_.forward_start[a]);
        // Counting sort of the output indices by the input index they read.
        int64_t* begin = first + s * dims_.first_size + dims_.first_start[a];
        begin[0] = dims_.forward_start[a];
        for (int64_t i : table)
          if (i >= 0) ++begin[i + 1];
        for (int64_t j = 0; j < in_shape[a]; ++j) begin[j + 1] += begin[j];
        std::vector<int64_t> next(begin, begin + in_shape[a]);
        int64_t* list = sources + s * dims_.sources_size;
        for (int64_t i = 0; i < out_shape[a]; ++i)
          if (table[size_t(i)] >= 0) list[next[size_t(table[size_t(i)])]++] = i;
      }
    }
    device_.reset();
  }
  const k::RemapDims& dims() const { return dims_; }
  // The device copy (uploaded on first use after build, on stream s).
  k::RemapTables device(cudaStream_t s) {
    if (!device_) {
      const size_t bytes = host_.size() * sizeof(int64_t);
      device_ = device_buffer(bytes);
      NN_CUDA_CHECK(cudaMemcpyAsync(device_->ptr, host_.data(), bytes, cudaMemcpyHostToDevice, s));
    }
    k::RemapTables t;
    t.forward = static_cast<const int64_t*>(device_->ptr);
    t.first = t.forward + dims_.samples * dims_.forward_size;
    t.sources = t.first + dims_.samples * dims_.first_size;
    return t;
  }

 private:
  k::RemapDims dims_;
  std::vector<int64_t> host_;  // forward tables, then range starts, then source lists (all samples each)
  std::shared_ptr<Buffer> device_;
};

// Pad: the CPU kernel's per-axis source tables (constant: -1 outside, repeat: clamped, reflect: numpy's
// 'reflect'); backward gathers dy over every output element reading each input element.
template <class T>
class CudaPad : public CudaCpuShaped {
 public:
  using CudaCpuShaped::CudaCpuShaped;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaCpuShaped::setup_impl(in, out);
    const Shape& xs = in[0]->shape();
    const Shape& ys = out[0]->shape();
    const auto pw = attrs_.get_ints("pad_width", {});
    const std::string mode = attrs_.get_string("mode");
    const size_t lead = xs.size() - pw.size() / 2;
    RemapTables::Tables tables(xs.size());
    for (size_t d = 0; d < xs.size(); ++d) {
      const int64_t before = d < lead ? 0 : pw[2 * (d - lead)], len = xs[d];
      auto& src = tables[d];
      src.resize(size_t(ys[d]));
      for (int64_t i = 0; i < ys[d]; ++i) {
        const int64_t j = i - before;
        if (mode == "constant") {
          src[size_t(i)] = j >= 0 && j < len ? j : -1;
        } else if (mode == "repeat") {
          src[size_t(i)] = std::min(std::max<int64_t>(j, 0), len - 1);
        } else {  // reflect
          const int64_t period = len - 1, a = std::abs(j);
          src[size_t(i)] = period > 0 ? std::abs(((a / period) & 1) * period - a % period) : 0;
        }
      }
    }
    tables_.build(xs, ys, {tables});
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    const float value = float(attrs_.get_float("constant_value"));
    k::remap_forward(st(), tables_.dims(), tables_.device(st()), data_in<T>(in[0]), data_out<T>(out[0]), value);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    k::remap_backward(st(), tables_.dims(), tables_.device(st()), grad_out<T>(out[0]),
                      grad_in<T>(in[0], accum[0]), accum[0]);
  }

 private:
  RemapTables tables_;
};

// RandomFlip / RandomShift: per-sample tables over the axes after base_axis, drawn on the host by the CPU
// kernels' own functions (ops/stochastic/remap_tables.hpp), so one seed gives the same result on both
// backends; the remap itself runs on the device.
class CudaRandomRemap : public CudaCpuShaped {
 public:
  CudaRandomRemap(const OpSchema& s, const Context& c, const Attrs& a)
      : CudaCpuShaped(s, c, a), random_(attrs_.get_int("seed")) {}

 protected:
  virtual RemapTables::Tables draw(RandomEngine& engine) = 0;
  virtual float fill_value() const { return 0.f; }

  void setup_impl(const Variables& in, const Variables& out) override {
    CudaCpuShaped::setup_impl(in, out);
    const Shape& xs = in[0]->shape();
    base_axis_ = int(attrs_.get_int("base_axis"));
    samples_ = shape_size(xs, 0, size_t(base_axis_));
    inner_shape_.assign(xs.begin() + base_axis_, xs.end());
    check_rank(inner_shape_, type());
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    std::vector<RemapTables::Tables> samples;
    samples.reserve(size_t(samples_));
    for (int64_t s = 0; s < samples_; ++s) samples.push_back(draw(random_.engine()));
    tables_.build(inner_shape_, inner_shape_, samples);
    k::remap_forward(st(), tables_.dims(), tables_.device(st()), data_in(in[0]), data_out(out[0]), fill_value());
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    k::remap_backward(st(), tables_.dims(), tables_.device(st()), grad_out(out[0]), grad_in(in[0], accum[0]),
                      accum[0]);
  }

  SeededRandom random_;
  int base_axis_ = 1;
  int64_t samples_ = 1;
  Shape inner_shape_;
  RemapTables tables_;  // of the last forward
};

class CudaRandomFlip : public CudaRandomRemap {
 public:
  using CudaRandomRemap::CudaRandomRemap;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaRandomRemap::setup_impl(in, out);
    const size_t nd = in[0]->shape().size();
    flip_axis_.assign(nd, false);
    for (int64_t a : attrs_.get_ints("axes", {int64_t(nd) - 1}))
      flip_axis_[size_t(normalize_axis(a, nd, "RandomFlip: axis"))] = true;
  }
  RemapTables::Tables draw(RandomEngine& engine) override {
    return ops::draw_flip_tables(engine, flip_axis_, base_axis_, inner_shape_);
  }

 private:
  std::vector<bool> flip_axis_;
};

class CudaRandomShift : public CudaRandomRemap {
 public:
  using CudaRandomRemap::CudaRandomRemap;

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaRandomRemap::setup_impl(in, out);
    shifts_ = attrs_.get_ints("shifts", std::vector<int64_t>(inner_shape_.size(), 0));
    mode_ = attrs_.get_string("border_mode");
  }
  float fill_value() const override { return float(attrs_.get_float("constant_value")); }
  RemapTables::Tables draw(RandomEngine& engine) override {
    return ops::draw_shift_tables(engine, shifts_, mode_, inner_shape_);
  }

 private:
  std::vector<int64_t> shifts_;
  std::string mode_;
};

}  // namespace

void register_shape_kernels(OpRegistry& r) {
  add_float_and_half_kernels<CudaSplit>(r, "Split");
  add_float_and_half_kernels<CudaStack>(r, "Stack");
  add_float_and_half_kernels<CudaFlip>(r, "Flip");
  add_float_and_half_kernels<CudaBroadcast>(r, "Broadcast");
  add_float_and_half_kernels<CudaBroadcastTo>(r, "BroadcastTo");
  add_float_and_half_kernels<CudaPad>(r, "Pad");
  add_float_and_half_kernels<CudaMax>(r, "Max");
  add_float_and_half_kernels<CudaMin>(r, "Min");
  add_float_and_half_kernels<CudaProd>(r, "Prod");
  add_float_kernel<CudaRandomFlip>(r, "RandomFlip");
  add_float_kernel<CudaRandomShift>(r, "RandomShift");
}

}  // namespace nn::cuda
