// CUDA ImageAugmentation (float, forward only): each image's transform, and the noise values, are drawn on
// the host by the CPU kernel's own functions in its order, so one seed gives the CPU's augmentations.
#include <random>

#include "cuda/kernels/augment.hpp"
#include "cuda/ops/cuda_ops.hpp"
#include "nn/core/random.hpp"
#include "ops/stochastic/image_augmentation_draw.hpp"

namespace nn::cuda {
namespace {

class CudaImageAugmentation : public CudaWithCpuSetup {
 public:
  CudaImageAugmentation(const OpSchema& s, const Context& c, const Attrs& a)
      : CudaWithCpuSetup(s, c, a), settings_(attrs_), random_(settings_.seed) {}
  bool is_stochastic() const override { return true; }
  bool has_backward() const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    CudaWithCpuSetup::setup_impl(in, out);  // shape, pad and the settings are checked there
    const Shape& xs = in[0]->shape();
    const Shape& ys = out[0]->shape();
    dims_ = k::AugmentDims{};
    dims_.w_in = int(xs[xs.size() - 1]);
    dims_.h_in = int(xs[xs.size() - 2]);
    dims_.w_out = int(ys[ys.size() - 1]);
    dims_.h_out = int(ys[ys.size() - 2]);
    dims_.channels = xs.size() >= 3 ? int(xs[xs.size() - 3]) : 1;
    dims_.images = shape_size(xs) / (int64_t(dims_.w_in) * dims_.h_in * dims_.channels);
    dims_.contrast_center = settings_.contrast_center;
  }

  void forward_impl(const Variables& in, const Variables& out) override {
    auto scope = enter();
    draw_all();
    const float* normals = normals_.empty() ? nullptr : upload(normals_, normals_buffer_);
    k::image_augment(st(), dims_, static_cast<const k::AugmentImage*>(upload_raw(images_, images_buffer_)),
                     upload(shift_, shift_buffer_), upload(gain_, gain_buffer_), normals, data_in(in[0]),
                     data_out(out[0]));
  }
  void backward_impl(const Variables&, const Variables&, const std::vector<bool>&,
                     const std::vector<bool>&) override {}

 private:
  // Every image's draws, then (per image, when it has noise) its normal draws per pixel and channel, in the
  // CPU kernel's order.
  void draw_all() {
    RandomEngine& g = random_.engine();
    std::normal_distribution<> normal(0.0, 1.0);
    const int c_count = dims_.channels;
    const int64_t plane = int64_t(dims_.h_out) * dims_.w_out;
    images_.assign(size_t(dims_.images), k::AugmentImage{});
    shift_.assign(size_t(dims_.images * c_count), 0.f);
    gain_.assign(size_t(dims_.images * c_count), 0.f);
    normals_.clear();
    for (int64_t im = 0; im < dims_.images; ++im) {
      const ops::AugmentDraw d =
          ops::draw_augmentation(g, settings_, dims_.w_in, dims_.h_in, dims_.w_out, dims_.h_out,
                                 int(settings_.pad[1]), int(settings_.pad[0]), c_count);
      images_[size_t(im)] = {d.x0, d.y0, d.x_ax, d.y_ax, d.x_ay, d.y_ay, d.distortion, d.noise};
      for (int c = 0; c < c_count; ++c) {
        shift_[size_t(im * c_count + c)] = d.shift[size_t(c)];
        gain_[size_t(im * c_count + c)] = d.gain[size_t(c)];
      }
      if (d.noise <= 0.f) continue;
      if (normals_.empty()) normals_.assign(size_t(dims_.images * c_count * plane), 0.f);
      for (int64_t p = 0; p < plane; ++p)
        for (int c = 0; c < c_count; ++c) normals_[size_t((im * c_count + c) * plane + p)] = float(normal(g));
    }
  }
  // Host vector -> device copy (the host vectors stay alive until the next forward).
  template <class V>
  const void* upload_raw(const std::vector<V>& host, std::shared_ptr<Buffer>& device) {
    const size_t bytes = host.size() * sizeof(V);
    if (!device || device->bytes < bytes) device = device_buffer(bytes);
    if (bytes > 0) NN_CUDA_CHECK(cudaMemcpyAsync(device->ptr, host.data(), bytes, cudaMemcpyHostToDevice, st()));
    return device->ptr;
  }
  const float* upload(const std::vector<float>& host, std::shared_ptr<Buffer>& device) {
    return static_cast<const float*>(upload_raw(host, device));
  }

  ops::AugmentSettings settings_;
  SeededRandom random_;
  k::AugmentDims dims_;
  std::vector<k::AugmentImage> images_;
  std::vector<float> shift_, gain_, normals_;
  std::shared_ptr<Buffer> images_buffer_, shift_buffer_, gain_buffer_, normals_buffer_;
};

}  // namespace

void register_augmentation_kernels(OpRegistry& r) {
  add_float_kernel<CudaImageAugmentation>(r, "ImageAugmentation");
}

}  // namespace nn::cuda
