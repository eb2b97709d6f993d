// ZIP archives over libzip: read members by name or index, write new archives with STORED entries.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/atomic_file.hpp"

struct zip;
struct zip_source;

namespace nn::formats {

// Throws nn::Error unless name is a safe relative member name: not empty, no leading '/' or '\',
// no drive letter ('C:'), no '..' path component.
void check_member_name(const std::string& name, const std::string& archive);

class ZipReader {
 public:
  static ZipReader open_file(const std::string& path);
  // bytes must outlive the reader; display_name is used in messages.
  static ZipReader open_memory(std::string_view bytes, const std::string& display_name);

  ZipReader(ZipReader&& other) noexcept;
  ZipReader& operator=(ZipReader&&) = delete;
  ZipReader(const ZipReader&) = delete;
  ~ZipReader();

  const std::string& path() const { return path_; }
  const std::vector<std::string>& names() const { return names_; }  // in archive order
  bool contains(const std::string& name) const;
  // Refuses a member whose declared size exceeds max_bytes before inflating it.
  std::string read(size_t index, uint64_t max_bytes = kMaxFileBytes) const;
  std::string read(const std::string& name) const;  // first member with that name

 private:
  ZipReader(struct zip* archive, std::string path);
  struct zip* archive_ = nullptr;
  std::string path_;
  std::vector<std::string> names_;
};

struct ZipMember {
  std::string name;
  std::string_view data;
};

// An archive holding the members in order, uncompressed (ZIP_STORED), as bytes.
std::string build_zip(const std::vector<ZipMember>& members);
// The same, written atomically to path.
void write_zip(const std::string& path, const std::vector<ZipMember>& members);

}  // namespace nn::formats
