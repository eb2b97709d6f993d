// Escaping control characters and invalid UTF-8 for terminal output.
#include "nn/core/printable.hpp"

#include <cstdint>
#include <cstdio>

namespace nn {

namespace {

// The length of the valid UTF-8 sequence starting at text[i] (0 when there is none) and its code point.
size_t utf8_sequence(std::string_view text, size_t i, uint32_t& code) {
  const auto byte = [&](size_t k) { return uint8_t(text[k]); };
  const uint8_t lead = byte(i);
  size_t length = 0;
  uint32_t min = 0;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2, min = 0x80, code = lead & 0x1fu;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3, min = 0x800, code = lead & 0x0fu;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4, min = 0x10000, code = lead & 0x07u;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3fu);
  }
  const bool surrogate = code >= 0xd800 && code <= 0xdfff;
  return code < min || code > 0x10ffff || surrogate ? 0 : length;
}

void append_escape(std::string& out, const char* format, unsigned value) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, format, value);
  out += buffer;
}

}  // namespace

std::string printable(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const uint8_t c = uint8_t(text[i]);
    if (c < 0x80) {
      const bool control = c < 0x20 || c == 0x7f;
      if (control && !(keep_newlines && (c == '\n' || c == '\t'))) {
        append_escape(out, "\\x%02x", c);
      } else {
        out += char(c);
      }
      ++i;
      continue;
    }
    uint32_t code = 0;
    const size_t length = utf8_sequence(text, i, code);
    if (length == 0) {
      append_escape(out, "\\x%02x", c);
      ++i;
    } else if (code <= 0x9f) {  // C1 controls: terminals may act on them as on ESC sequences
      append_escape(out, "\\u%04x", code);
      i += length;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

}  // namespace nn
