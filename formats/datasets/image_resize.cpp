// Lanczos resampling, aspect crop/pad and channel conversion of 8-bit images (image_resize.hpp).
#include "formats/datasets/image_resize.hpp"

#include <algorithm>
#include <cmath>

#include "nn/core/error.hpp"

namespace nn::formats::datasets {

namespace {

constexpr int kPrecisionBits = 22;  // fixed-point weights, as PIL's 8-bit resampler

double sinc(double x) {
  if (x == 0.0) return 1.0;
  x *= M_PI;
  return std::sin(x) / x;
}

double lanczos3(double x) { return (x >= -3.0 && x < 3.0) ? sinc(x) * sinc(x / 3.0) : 0.0; }

// For each output index: the first input index and the fixed-point weights of the inputs it reads.
struct Taps {
  std::vector<int> first;
  std::vector<std::vector<int32_t>> weights;
};

Taps make_taps(int in_size, int out_size) {
  const double scale = double(in_size) / out_size;
  const double filter_scale = std::max(scale, 1.0);
  const double support = 3.0 * filter_scale;
  Taps taps;
  for (int o = 0; o < out_size; ++o) {
    const double center = (o + 0.5) * scale;
    const int lo = std::max(0, int(center - support + 0.5));
    const int hi = std::min(in_size, int(center + support + 0.5));
    std::vector<double> w;
    double sum = 0.0;
    for (int x = lo; x < hi; ++x) {
      w.push_back(lanczos3((x - center + 0.5) / filter_scale));
      sum += w.back();
    }
    std::vector<int32_t> fixed;
    for (double k : w) {
      const double v = (sum != 0.0 ? k / sum : k) * (1 << kPrecisionBits);
      fixed.push_back(int32_t(v < 0 ? v - 0.5 : v + 0.5));
    }
    taps.first.push_back(lo);
    taps.weights.push_back(std::move(fixed));
  }
  return taps;
}

uint8_t clip8(int64_t acc) {
  const int64_t v = acc >> kPrecisionBits;
  return uint8_t(std::clamp<int64_t>(v, 0, 255));
}

// One pass along x (horizontal) or y (vertical).
Image8 resample_axis(const Image8& in, int out_size, bool horizontal) {
  const int in_size = horizontal ? in.width : in.height;
  if (in_size == out_size) return in;
  const Taps taps = make_taps(in_size, out_size);
  Image8 out;
  out.channels = in.channels;
  out.width = horizontal ? out_size : in.width;
  out.height = horizontal ? in.height : out_size;
  out.pixels.resize(size_t(out.width) * out.height * out.channels);
  const int c = in.channels;
  for (int y = 0; y < out.height; ++y) {
    for (int x = 0; x < out.width; ++x) {
      const int o = horizontal ? x : y;
      const auto& w = taps.weights[size_t(o)];
      for (int ch = 0; ch < c; ++ch) {
        int64_t acc = int64_t(1) << (kPrecisionBits - 1);
        for (size_t k = 0; k < w.size(); ++k) {
          const int i = taps.first[size_t(o)] + int(k);
          const size_t src = horizontal ? (size_t(y) * in.width + i) : (size_t(i) * in.width + x);
          acc += int64_t(in.pixels[src * c + ch]) * w[k];
        }
        out.pixels[(size_t(y) * out.width + x) * c + ch] = clip8(acc);
      }
    }
  }
  return out;
}

// Rows [top, top+h) and columns [left, left+w) placed at (dy, dx) of a zeroed out_w x out_h image.
Image8 place(const Image8& in, int out_w, int out_h, int top, int left, int h, int w, int dy, int dx) {
  Image8 out{out_w, out_h, in.channels, std::vector<uint8_t>(size_t(out_w) * out_h * in.channels, 0)};
  const size_t row_bytes = size_t(w) * in.channels;
  for (int y = 0; y < h; ++y) {
    const uint8_t* src = &in.pixels[(size_t(top + y) * in.width + left) * in.channels];
    std::copy(src, src + row_bytes, &out.pixels[(size_t(dy + y) * out_w + dx) * in.channels]);
  }
  return out;
}

}  // namespace

Image8 resize_lanczos(const Image8& image, int width, int height) {
  NN_CHECK(width > 0 && height > 0 && image.width > 0 && image.height > 0)
      << "cannot resize a " << image.width << "x" << image.height << " image to " << width << "x" << height;
  return resample_axis(resample_axis(image, width, true), height, false);
}

AspectFit crop_fit(int w, int h, int width, int height) {
  if (double(h) / w > double(height) / width) {
    const int cut = (h - int(double(w) / width * height)) / 2;
    return {w, h - 2 * cut, 0, -cut};
  }
  const int cut = (w - int(double(h) / height * width)) / 2;
  return {w - 2 * cut, h, -cut, 0};
}

AspectFit pad_fit(int w, int h, int width, int height) {
  if (double(h) / w < double(height) / width) {
    const int target = int(double(height) / width * w);
    return {w, target, 0, (target - h) / 2};
  }
  const int target = int(double(width) / height * h);
  return {target, h, (target - w) / 2, 0};
}

Image8 crop_to_aspect(const Image8& image, int width, int height) {
  const AspectFit f = crop_fit(image.width, image.height, width, height);
  return place(image, f.width, f.height, -f.y, -f.x, f.height, f.width, 0, 0);
}

Image8 pad_to_aspect(const Image8& image, int width, int height) {
  const AspectFit f = pad_fit(image.width, image.height, width, height);
  return place(image, f.width, f.height, 0, 0, image.height, image.width, f.y, f.x);
}

Image8 convert_channels(const Image8& image, int channels) {
  if (image.channels == channels) return image;
  NN_CHECK((image.channels == 1 || image.channels == 3) && (channels == 1 || channels == 3))
      << "cannot convert " << image.channels << " channels to " << channels;
  Image8 out{image.width, image.height, channels, {}};
  const size_t n = size_t(image.width) * image.height;
  out.pixels.resize(n * channels);
  for (size_t i = 0; i < n; ++i) {
    if (channels == 3) {
      std::fill_n(&out.pixels[i * 3], 3, image.pixels[i]);
    } else {
      const uint8_t* p = &image.pixels[i * 3];
      out.pixels[i] = uint8_t(0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]);
    }
  }
  return out;
}

}  // namespace nn::formats::datasets
