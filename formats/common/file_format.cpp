// File format detection.
#include "formats/common/file_format.hpp"

#include <sys/stat.h>

#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace nn::formats {

const char* format_name(FileFormat format) {
  switch (format) {
    case FileFormat::kNnp: return "NNP";
    case FileFormat::kNntxt: return "NNTXT";
    case FileFormat::kProtobuf: return "PROTOBUF";
    case FileFormat::kH5: return "H5";
    case FileFormat::kNnb: return "NNB";
    case FileFormat::kOnnx: return "ONNX";
    case FileFormat::kDirectory: return "DIRECTORY";
    case FileFormat::kUnknown: break;
  }
  return "UNKNOWN";
}

std::string file_extension(const std::string& path) {
  std::string base = std::filesystem::path(path).filename().string();
  size_t dot = base.rfind('.');
  if (dot == std::string::npos) return "";
  std::string ext = base.substr(dot + 1);
  for (auto& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

FileFormat format_from_extension(const std::string& path) {
  const std::string ext = file_extension(path);
  if (ext == "nnp") return FileFormat::kNnp;
  if (ext == "nntxt" || ext == "prototxt") return FileFormat::kNntxt;
  if (ext == "protobuf") return FileFormat::kProtobuf;
  if (ext == "h5") return FileFormat::kH5;
  if (ext == "nnb") return FileFormat::kNnb;
  if (ext == "onnx") return FileFormat::kOnnx;
  return FileFormat::kUnknown;
}

namespace {

uint32_t le32(std::string_view s, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | uint8_t(s[at + i]);
  return v;
}

// NNB: version 2 or 3, then a 56-byte header whose block count and data size add up to the file size.
bool looks_like_nnb(std::string_view head, uint64_t file_size) {
  if (head.size() < 56) return false;
  uint32_t version = le32(head, 0);
  if (version != 2 && version != 3) return false;
  uint64_t blocks = le32(head, 48), data_size = le32(head, 52);
  return 56 + 4 * blocks + data_size == file_size;
}

bool looks_like_text(std::string_view head) {
  size_t i = 0;
  while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
  if (i == head.size() || !(std::isalpha(static_cast<unsigned char>(head[i])) || head[i] == '#')) return false;
  for (char c : head)
    if (static_cast<unsigned char>(c) < 0x20 && !std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

FileFormat format_from_magic(std::string_view head, uint64_t file_size) {
  if (head.size() >= 4 &&
      (std::memcmp(head.data(), "PK\x03\x04", 4) == 0 || std::memcmp(head.data(), "PK\x05\x06", 4) == 0))
    return FileFormat::kNnp;
  if (head.size() >= 8 && std::memcmp(head.data(), "\x89HDF\r\n\x1a\n", 8) == 0) return FileFormat::kH5;
  if (looks_like_nnb(head, file_size)) return FileFormat::kNnb;
  // Binary NNablaProtoBuf holding parameters starts with the tag of field 200 (parameter).
  if (head.size() >= 2 && uint8_t(head[0]) == 0xc2 && uint8_t(head[1]) == 0x0c) return FileFormat::kProtobuf;
  if (looks_like_text(head)) return FileFormat::kNntxt;
  return FileFormat::kUnknown;
}

FileFormat detect_format(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return FileFormat::kDirectory;
  FileFormat by_extension = format_from_extension(path);
  if (by_extension != FileFormat::kUnknown) return by_extension;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return FileFormat::kUnknown;  // a FIFO never blocks
  std::ifstream in(path, std::ios::binary);
  if (!in) return FileFormat::kUnknown;
  char buf[64];
  in.read(buf, sizeof(buf));
  uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) return FileFormat::kUnknown;
  return format_from_magic(std::string_view(buf, size_t(in.gcount())), size);
}

}  // namespace nn::formats
