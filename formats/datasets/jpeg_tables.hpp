// A JPEG's Huffman tables checked before stb_image decodes it (stb_image 2.27 writes past a table that
// declares more than 256 symbols: fixed upstream in 2.28, not in Debian's copy).
#pragma once
#include <string>

namespace nn::formats::datasets {

// Throws nn::Error naming `path` when a DHT segment of a JPEG declares more than 256 codes or runs past its
// segment. Bytes that are not a JPEG pass unchecked.
void check_jpeg_huffman_tables(const std::string& bytes, const std::string& path);

}  // namespace nn::formats::datasets
