// Image files for datasets and forward results: decoding (PNG, JPEG, BMP, GIF, PGM/PPM via stb_image)
// to channel-first samples, and PNG encoding of uint8 images.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/core/shape.hpp"

namespace nn::formats::datasets {

struct DecodedImage {
  int channels = 0;  // 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA (palettes expand to RGB/RGBA, as PIL)
  int height = 0;
  int width = 0;
  int bits = 8;                  // 8 or 16
  std::vector<uint16_t> pixels;  // channel-first (C, H, W)
  Shape shape() const { return {channels, height, width}; }
};

// Decodes an image file; throws nn::Error naming the file when it is missing or not decodable.
// Largest image decoded (width x height): about 11,600 x 11,600; a header claiming more is refused before
// anything is allocated.
constexpr int64_t kMaxImagePixels = int64_t(1) << 27;

DecodedImage read_image(const std::string& path);
// The same from bytes already in memory; `path` names them in errors.
DecodedImage decode_image(const std::string& bytes, const std::string& path);

// Values as floats: divided by 255 (8-bit) or 65535 (16-bit) when normalize, raw integers otherwise.
void image_to_float(const DecodedImage& image, bool normalize, float* out);

// Writes a PNG: channels 1 (gray) or 3 (RGB); pixels interleaved (H, W, C). Throws on failure.
void write_png(const std::string& path, int width, int height, int channels, const std::vector<uint8_t>& pixels);
// The same PNG file as bytes in memory (for write_file_atomic).
std::string encode_png(int width, int height, int channels, const std::vector<uint8_t>& pixels);

}  // namespace nn::formats::datasets
