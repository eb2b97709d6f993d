// stb_image / stb_image_write behind DecodedImage and write_png (the only stb implementation unit).
#include "formats/datasets/image_io.hpp"

#include <memory>

#include "formats/common/atomic_file.hpp"
#include "formats/common/out_of_memory.hpp"
#include "formats/datasets/jpeg_tables.hpp"
#include "nn/core/error.hpp"

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_HDR
#define STBI_NO_PSD
#define STBI_NO_PIC
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

namespace nn::formats::datasets {

DecodedImage decode_image(const std::string& bytes, const std::string& path) {
  auto data = reinterpret_cast<const stbi_uc*>(bytes.data());
  int len = int(bytes.size());
  DecodedImage image;
  int w = 0, h = 0, n = 0;
  check_jpeg_huffman_tables(bytes, path);  // before stb_image reads any table (its info call does)
  // The header's size is checked before decoding: a small file may claim any size.
  NN_CHECK(stbi_info_from_memory(data, len, &w, &h, &n) != 0)
      << "'" << path << "': cannot decode the image (" << stbi_failure_reason() << ")";
  NN_CHECK(int64_t(w) * h <= kMaxImagePixels) << "'" << path << "': the image claims " << w << "x" << h
                                              << " pixels, more than the limit of " << kMaxImagePixels;
  bool sixteen = stbi_is_16_bit_from_memory(data, len) != 0;
  void* raw = sixteen ? static_cast<void*>(stbi_load_16_from_memory(data, len, &w, &h, &n, 0))
                      : static_cast<void*>(stbi_load_from_memory(data, len, &w, &h, &n, 0));
  NN_CHECK(raw != nullptr) << "'" << path << "': cannot decode the image (" << stbi_failure_reason() << ")";
  std::unique_ptr<void, void (*)(void*)> guard(raw, stbi_image_free);
  image.channels = n;
  image.height = h;
  image.width = w;
  image.bits = sixteen ? 16 : 8;
  image.pixels.resize(size_t(n) * h * w);
  const size_t plane = size_t(h) * w;
  for (size_t p = 0; p < plane; ++p) {
    for (int c = 0; c < n; ++c) {
      size_t src = p * n + c;
      image.pixels[c * plane + p] =
          sixteen ? static_cast<const uint16_t*>(raw)[src] : static_cast<const uint8_t*>(raw)[src];
    }
  }
  return image;
}

DecodedImage read_image(const std::string& path) {
  return naming_out_of_memory("'" + path + "'", [&] { return decode_image(read_file(path), path); });
}

void image_to_float(const DecodedImage& image, bool normalize, float* out) {
  const double scale = normalize ? 1.0 / (image.bits == 16 ? 65535.0 : 255.0) : 1.0;
  for (size_t i = 0; i < image.pixels.size(); ++i) out[i] = float(double(image.pixels[i]) * scale);
}

std::string encode_png(int width, int height, int channels, const std::vector<uint8_t>& pixels) {
  NN_INTERNAL_CHECK(pixels.size() == size_t(width) * height * channels) << "png pixel count";
  int len = 0;
  unsigned char* png = stbi_write_png_to_mem(pixels.data(), width * channels, width, height, channels, &len);
  NN_CHECK(png != nullptr) << "cannot encode a " << width << "x" << height << " PNG image";
  std::unique_ptr<unsigned char, void (*)(void*)> guard(png, [](void* p) { STBIW_FREE(p); });
  return std::string(reinterpret_cast<const char*>(png), size_t(len));
}

void write_png(const std::string& path, int width, int height, int channels, const std::vector<uint8_t>& pixels) {
  write_file_atomic(path, encode_png(width, height, channels, pixels));  // the system's reason on failure
}

}  // namespace nn::formats::datasets
