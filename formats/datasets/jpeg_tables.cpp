// Walks a JPEG's marker segments (and the entropy-coded data between scans) to check every DHT segment.
#include "formats/datasets/jpeg_tables.hpp"

#include <algorithm>
#include <cstdint>

#include "nn/core/error.hpp"

namespace nn::formats::datasets {

namespace {

uint8_t byte_at(const std::string& b, size_t i) { return uint8_t(b[i]); }

// One DHT segment's payload [begin, end): tables of 1 class/id byte, 16 counts, then the symbols.
void check_dht(const std::string& b, size_t begin, size_t end, const std::string& path) {
  size_t p = begin;
  while (p < end) {
    NN_CHECK(p + 17 <= end) << "'" << path << "': JPEG Huffman table at byte " << p << " is truncated";
    size_t symbols = 0;
    for (size_t i = 1; i <= 16; ++i) symbols += byte_at(b, p + i);
    NN_CHECK(symbols <= 256) << "'" << path << "': corrupt JPEG: a Huffman table at byte " << p << " declares "
                             << symbols << " codes (at most 256)";
    NN_CHECK(p + 17 + symbols <= end) << "'" << path << "': JPEG Huffman table at byte " << p
                                      << " runs past its segment";
    p += 17 + symbols;
  }
}

// Index just after the entropy-coded data that starts at p: the next marker that is not a byte stuffing
// (FF 00), a restart marker (FF D0-D7) or fill bytes.
size_t skip_entropy_data(const std::string& b, size_t p) {
  while (p + 1 < b.size()) {
    if (byte_at(b, p) != 0xFF) {
      ++p;
      continue;
    }
    const uint8_t next = byte_at(b, p + 1);
    if (next == 0x00 || next == 0xFF || (next >= 0xD0 && next <= 0xD7)) {
      p += next == 0xFF ? 1 : 2;
      continue;
    }
    return p;
  }
  return b.size();
}

}  // namespace

void check_jpeg_huffman_tables(const std::string& b, const std::string& path) {
  if (b.size() < 4 || byte_at(b, 0) != 0xFF || byte_at(b, 1) != 0xD8) return;  // not a JPEG
  size_t p = 2;
  while (p + 4 <= b.size()) {
    if (byte_at(b, p) != 0xFF) {  // stb_image skips bytes between segments until a marker: so does this
      ++p;
      continue;
    }
    const uint8_t marker = byte_at(b, p + 1);
    if (marker == 0xFF) {  // fill byte
      ++p;
      continue;
    }
    if (marker == 0xD9) return;                                  // end of image
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {  // markers without a length
      p += 2;
      continue;
    }
    const size_t length = size_t(byte_at(b, p + 2)) << 8 | byte_at(b, p + 3);
    if (length < 2) return;
    const size_t end = std::min(p + 2 + length, b.size());  // stb_image reads a cut segment up to the end
    if (marker == 0xC4) check_dht(b, p + 4, end, path);
    p = marker == 0xDA ? skip_entropy_data(b, end) : end;
  }
}

}  // namespace nn::formats::datasets
