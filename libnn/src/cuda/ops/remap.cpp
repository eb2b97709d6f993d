// CUDA remaps through per-axis index tables: Pad (float and __half storage), RandomFlip and RandomShift
// (float). The tables and arguments are the CPU kernels' (ops/array/array_args.hpp,
// ops/stochastic/remap_tables.hpp).
#include <algorithm>
#include <optional>

#include "cuda/ops/strided_copy.hpp"
#include "nn/core/random.hpp"
#include "ops/array/array_args.hpp"
#include "ops/stochastic/remap_tables.hpp"

namespace nn::cuda {

void register_remap_kernels(OpRegistry& r);

namespace {

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

// Pad: the CPU kernel's per-axis source tables (ops/array/array_args.hpp); backward gathers dy over every output
// element reading each input element.
template <class T>
class CudaPad : public CudaCpuShaped {
 public:
  CudaPad(const OpSchema& s, const Context& c, const Attrs& a) : CudaCpuShaped(s, c, a), args_(attrs_) {}

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaCpuShaped::setup_impl(in, out);
    const Shape& xs = in[0]->shape();
    Shape ys;
    const RemapTables::Tables tables = ops::pad_source_tables(args_, xs, ys);
    tables_.build(xs, ys, {tables});
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    k::remap_forward(st(), tables_.dims(), tables_.device(st()), data_in<T>(in[0]), data_out<T>(out[0]),
                     args_.constant_value);
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    auto scope = enter();
    k::remap_backward(st(), tables_.dims(), tables_.device(st()), grad_out<T>(out[0]), grad_in<T>(in[0], accum[0]),
                      accum[0]);
  }

 private:
  ops::PadArgs args_;
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
    base_axis_ = ops::remap_base_axis(attrs_, xs, type());
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
    flip_axis_ = ops::random_flip_axes(attrs_, in[0]->shape().size(), base_axis_);
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
    args_ = ops::RandomShiftArgs(attrs_, inner_shape_, in[0]->shape());
  }
  float fill_value() const override { return args_->constant_value; }
  RemapTables::Tables draw(RandomEngine& engine) override {
    return ops::draw_shift_tables(engine, args_->shifts, args_->border_mode, inner_shape_);
  }

 private:
  std::optional<ops::RandomShiftArgs> args_;
};

}  // namespace

void register_remap_kernels(OpRegistry& r) {
  add_float_and_half_kernels<CudaPad>(r, "Pad");
  add_float_kernel<CudaRandomFlip>(r, "RandomFlip");
  add_float_kernel<CudaRandomShift>(r, "RandomShift");
}

}  // namespace nn::cuda
