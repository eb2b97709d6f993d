// 8-bit image geometry for dataset tools: Lanczos-3 resampling (as PIL's Image.resize(LANCZOS)),
// centre crop / zero padding to an aspect ratio, and channel conversion.
#pragma once
#include <cstdint>
#include <vector>

namespace nn::formats::datasets {

// An 8-bit image, pixels interleaved (H, W, C).
struct Image8 {
  int width = 0;
  int height = 0;
  int channels = 0;
  std::vector<uint8_t> pixels;
};

// Resamples to width x height with a separable Lanczos-3 filter widened by the scale factor when
// shrinking (PIL's algorithm: horizontal pass, then vertical, each rounded and clipped to 0..255).
Image8 resize_lanczos(const Image8& image, int width, int height);

// Centre crop (trimming) or symmetric zero padding (padding) to the aspect ratio width:height, with
// nnabla's create_image_classification_dataset arithmetic (integer sizes, odd remainders to the end).
Image8 crop_to_aspect(const Image8& image, int width, int height);
Image8 pad_to_aspect(const Image8& image, int width, int height);

// Where crop_to_aspect / pad_to_aspect put an image_width x image_height image: the size of the result and
// the position of the image's top-left corner in it (negative when cropped, positive when padded).
struct AspectFit {
  int width = 0;
  int height = 0;
  int x = 0;
  int y = 0;
};
AspectFit crop_fit(int image_width, int image_height, int width, int height);
AspectFit pad_fit(int image_width, int image_height, int width, int height);

// 1 <-> 3 channels: gray replicated to RGB, RGB to gray as int(0.299 R + 0.587 G + 0.114 B).
Image8 convert_channels(const Image8& image, int channels);

}  // namespace nn::formats::datasets
