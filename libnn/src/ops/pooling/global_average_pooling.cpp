// GlobalAveragePooling: (N, C, ...) -> (N, C, 1, 1), the mean over all axes after the channel axis.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ops/detail/channels_last_view.hpp"
#include "ops/detail/op_common.hpp"

namespace nn::ops {
namespace {
class GlobalAveragePooling : public Function {
 public:
  using Function::Function;
  bool grad_depends_input_data(int, int) const override { return false; }

 protected:
  void setup_impl(const Variables& in, const Variables& out) override {
    const Shape& x = in[0]->shape();
    NN_CHECK(x.size() >= 2) << "GlobalAveragePooling: input " << to_string(x) << " must have at least 2 dims";
    maps_ = x[0] * x[1];
    area_ = shape_size(x, 2, x.size());
    out[0]->reshape({x[0], x[1], 1, 1}, true);
  }
  void forward_impl(const Variables& in, const Variables& out) override {
    if (held_channels_last(*in[0]->data())) return forward_channels_last(in, out);
    const float* x = in_data(in[0]);
    float* y = out_data(out[0]);
    const float inv = area_ > 0 ? 1.f / float(area_) : 0.f;
    const int64_t area = area_;
    parallel_for_maps([&](int64_t m) {
      const float* p = x + m * area;
      float s = 0.f;
#pragma omp simd reduction(+ : s)
      for (int64_t i = 0; i < area; ++i) s += p[i];
      y[m] = s * inv;
    });
  }
  void backward_impl(const Variables& in, const Variables& out, const std::vector<bool>& prop,
                     const std::vector<bool>& accum) override {
    if (!prop[0]) return;
    const float* dy = out_grad(out[0]);
    float* dx = in_grad(in[0], accum[0]);
    const float inv = area_ > 0 ? 1.f / float(area_) : 0.f;
    const int64_t area = area_;
    const bool acc = accum[0];
    parallel_for_maps([&](int64_t m) {
      float* p = dx + m * area;
      const float g = dy[m] * inv;
      if (acc) {
#pragma omp simd
        for (int64_t i = 0; i < area; ++i) p[i] += g;
      } else {
        std::fill(p, p + area, g);
      }
    });
  }

 private:
  // A channels-last input (a convolution's output, gradients off): sums over the pixels, a block of channels at a
  // time in registers. A large single image splits among threads by pixels, each summing the rows a convolution's
  // bands of rows (conv_dnnl_chunked.cpp) left in its own cache, into its own partial sums; batches split by
  // channels. Splitting EfficientNet b1's first map by channels read half of it from the other core's cache
  // (13 us on one thread, 19 on two).
  void forward_channels_last(const Variables& in, const Variables& out) {
    const Shape& xs = in[0]->shape();
    const int64_t n = xs[0], c = xs[1];
    const float* x = static_cast<const float*>(in[0]->data()->get_raw(channels_last_key()));
    float* y = out_data(out[0]);
    const float inv = area_ > 0 ? 1.f / float(area_) : 0.f;
    const int parts = parallel_range_count(maps_ * area_);
    if (n == 1 && parts > 1 && area_ >= parts) {
      std::vector<float> partial(size_t(parts * c));
      parallel_ranges(area_, maps_ * area_, [&](int64_t begin, int64_t end, int t) {
        sum_channels(x + begin * c, end - begin, c, 0, c, partial.data() + t * c);
      });
      for (int64_t k = 0; k < c; ++k) {
        float sum = 0.f;
        for (int t = 0; t < parts; ++t) sum += partial[size_t(t * c + k)];
        y[k] = sum * inv;
      }
      return;
    }
    // channels split among threads in whole vectors
    parallel_image_pieces(n, c, 8, maps_ * area_, [&](int64_t b, int64_t k0, int64_t k1) {
      float* yb = y + b * c;
      sum_channels(x + b * area_ * c, area_, c, k0, k1, yb);
      for (int64_t k = k0; k < k1; ++k) yb[k] *= inv;
    });
  }

  // y[k] = the sum over `pixels` channels-last pixels of `c` channels of x[k], for k0 <= k < k1. Tiles of pixels
  // that the first-level cache holds are summed a block of channels at a time in vector registers, and each
  // tile's sums added into y: adding into y pixel by pixel waited on the store of the last pixel's sum
  // (EfficientNet's 32 x 112 x 112 map: 37 us, 15 this way), and whole-map passes per block read a map larger
  // than the second-level cache once per block.
  static void sum_channels(const float* x, int64_t pixels, int64_t c, int64_t k0, int64_t k1, float* y) {
    constexpr int64_t kBlock = 64;                                // eight vectors of eight channels
    const int64_t tile_pixels = std::max<int64_t>(16, 8192 / c);  // 32 KB
    std::fill(y + k0, y + k1, 0.f);
    for (int64_t p0 = 0; p0 < pixels; p0 += tile_pixels) {
      const int64_t tile = std::min(tile_pixels, pixels - p0);
      for (int64_t k = k0; k < k1; k += kBlock) add_tile(x + p0 * c + k, tile, c, std::min(kBlock, k1 - k), y + k);
    }
  }

  // y[k] += the sum over `pixels` pixels (`stride` floats apart) of x[k], for k < width <= 64.
  static void add_tile(const float* x, int64_t pixels, int64_t stride, int64_t width, float* y) {
    switch (width / 8) {  // the vector count fixed at compile time, so the sums stay in registers
      case 8: add_vectors<8>(x, pixels, stride, y); break;
      case 7: add_vectors<7>(x, pixels, stride, y); break;
      case 6: add_vectors<6>(x, pixels, stride, y); break;
      case 5: add_vectors<5>(x, pixels, stride, y); break;
      case 4: add_vectors<4>(x, pixels, stride, y); break;
      case 3: add_vectors<3>(x, pixels, stride, y); break;
      case 2: add_vectors<2>(x, pixels, stride, y); break;
      case 1: add_vectors<1>(x, pixels, stride, y); break;
      default: break;
    }
    for (int64_t k = width / 8 * 8; k < width; ++k)
      for (int64_t p = 0; p < pixels; ++p) y[k] += x[p * stride + k];
  }
  template <int V>
  static void add_vectors(const float* x, int64_t pixels, int64_t stride, float* y) {
    typedef float Vec8 __attribute__((vector_size(32)));
    Vec8 acc[V] = {};
    for (int64_t p = 0; p < pixels; ++p)
      for (int v = 0; v < V; ++v) {
        Vec8 a;
        std::memcpy(&a, x + p * stride + 8 * v, sizeof a);
        acc[v] += a;
      }
    for (int v = 0; v < V; ++v) {
      Vec8 sum;
      std::memcpy(&sum, y + 8 * v, sizeof sum);
      sum += acc[v];
      std::memcpy(y + 8 * v, &sum, sizeof sum);
    }
  }

  template <class F>
  void parallel_for_maps(F&& f) const {
    if (maps_ * area_ >= kParallelThreshold && maps_ > 1) {
#pragma omp parallel for schedule(static)
      for (int64_t m = 0; m < maps_; ++m) f(m);
    } else {
      for (int64_t m = 0; m < maps_; ++m) f(m);
    }
  }
  int64_t maps_ = 0, area_ = 0;
};
}  // namespace

void register_global_average_pooling(OpRegistry& r) {
  register_cpu<GlobalAveragePooling>(r, SchemaBuilder("GlobalAveragePooling", "Neural Network Layer")
                                            .doc("mean over all axes after the channel axis, kept as (N, C, 1, 1)")
                                            .in("x")
                                            .out("y")
                                            .build());
}

}  // namespace nn::ops
