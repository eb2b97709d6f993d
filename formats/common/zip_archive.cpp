// ZIP archives over libzip.
#include "formats/common/zip_archive.hpp"

#include <zip.h>

#include <cctype>
#include <cstdio>
#include <memory>

#include "formats/common/atomic_file.hpp"
#include "nn/core/error.hpp"

namespace nn::formats {

namespace {

// Deflate cannot expand data by more than about 1032:1; a larger declared ratio is a lie or a bomb.
constexpr uint64_t kMaxDeflateRatio = 1100;

std::string libzip_error_text(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string text = zip_error_strerror(&error);
  zip_error_fini(&error);
  return text;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

}  // namespace

void check_member_name(const std::string& name, const std::string& archive) {
  NN_CHECK(!name.empty()) << quoted(archive) << ": archive member with an empty name";
  NN_CHECK(name[0] != '/' && name[0] != '\\')
      << quoted(archive) << ": member " << quoted(name) << " has an absolute path";
  NN_CHECK(!(name.size() >= 2 && std::isalpha(static_cast<unsigned char>(name[0])) && name[1] == ':'))
      << quoted(archive) << ": member " << quoted(name) << " starts with a drive letter";
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = name.find_first_of("/\\", start);
    if (end == std::string::npos) end = name.size();
    NN_CHECK(name.compare(start, end - start, "..") != 0)
        << quoted(archive) << ": member " << quoted(name) << " has a '..' path component";
    start = end + 1;
  }
}

ZipReader::ZipReader(struct zip* archive, std::string path) : archive_(archive), path_(std::move(path)) {
  zip_int64_t count = zip_get_num_entries(archive_, 0);
  if (count < 0) count = 0;
  for (zip_int64_t i = 0; i < count; ++i) {
    const char* name = zip_get_name(archive_, zip_uint64_t(i), 0);
    if (!name) {
      zip_discard(archive_);
      archive_ = nullptr;
      NN_FAIL(ErrorCode::kInvalid) << quoted(path_) << ": cannot read the name of member " << i;
    }
    names_.emplace_back(name);
  }
  for (const auto& name : names_) {
    try {
      check_member_name(name, path_);
    } catch (...) {
      zip_discard(archive_);
      archive_ = nullptr;
      throw;
    }
  }
}

ZipReader::ZipReader(ZipReader&& other) noexcept
    : archive_(other.archive_), path_(std::move(other.path_)), names_(std::move(other.names_)) {
  other.archive_ = nullptr;
}

ZipReader::~ZipReader() {
  if (archive_) zip_discard(archive_);
}

ZipReader ZipReader::open_file(const std::string& path) {
  require_regular_file(path);
  int code = 0;
  struct zip* archive = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
  NN_CHECK(archive) << quoted(path)
                    << ": not a valid zip archive (truncated or corrupt?): " << libzip_error_text(code);
  return ZipReader(archive, path);
}

ZipReader ZipReader::open_memory(std::string_view bytes, const std::string& display_name) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  NN_CHECK(source) << quoted(display_name) << ": " << zip_error_strerror(&error);
  struct zip* archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error);
  if (!archive) {
    std::string text = zip_error_strerror(&error);
    zip_source_free(source);
    zip_error_fini(&error);
    NN_FAIL(ErrorCode::kInvalid) << quoted(display_name)
                                 << ": not a valid zip archive (truncated or corrupt?): " << text;
  }
  zip_error_fini(&error);
  return ZipReader(archive, display_name);
}

bool ZipReader::contains(const std::string& name) const {
  for (const auto& n : names_)
    if (n == name) return true;
  return false;
}

std::string ZipReader::read(const std::string& name) const {
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return read(i);
  NN_FAIL(ErrorCode::kInvalid) << quoted(path_) << ": archive has no member " << quoted(name);
}

std::string ZipReader::read(size_t index, uint64_t max_bytes) const {
  NN_INTERNAL_CHECK(archive_ && index < names_.size()) << "member index " << index;
  const std::string& name = names_[index];
  const std::string where = quoted(path_) + ": member " + quoted(name);
  zip_stat_t st;
  zip_stat_init(&st);
  NN_CHECK(zip_stat_index(archive_, index, 0, &st) == 0) << where << ": " << zip_strerror(archive_);
  NN_CHECK((st.valid & ZIP_STAT_SIZE) && (st.valid & ZIP_STAT_COMP_SIZE)) << where << ": size unknown";
  NN_CHECK(st.size <= max_bytes) << where << ": declared size " << st.size << " bytes exceeds the limit of "
                                 << max_bytes << " bytes";
  NN_CHECK(st.size <= st.comp_size * kMaxDeflateRatio + 65536)
      << where << ": declared size " << st.size << " is implausible for " << st.comp_size << " compressed bytes";
  std::unique_ptr<zip_file_t, int (*)(zip_file_t*)> file(zip_fopen_index(archive_, index, 0), zip_fclose);
  NN_CHECK(file) << where << ": cannot open: " << zip_strerror(archive_);
  std::string data(size_t(st.size), '\0');
  uint64_t done = 0;
  while (done < st.size) {
    zip_int64_t n = zip_fread(file.get(), data.data() + done, st.size - done);
    NN_CHECK(n >= 0) << where << ": corrupt data: " << zip_file_strerror(file.get());
    NN_CHECK(n > 0) << where << ": truncated data (" << done << " of " << st.size << " bytes)";
    done += uint64_t(n);
  }
  char extra;
  zip_int64_t more = zip_fread(file.get(), &extra, 1);  // also triggers the CRC check at the end
  NN_CHECK(more == 0) << where << ": corrupt data (size or CRC mismatch): " << zip_file_strerror(file.get());
  return data;
}

std::string build_zip(const std::vector<ZipMember>& members) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* out = zip_source_buffer_create(nullptr, 0, 0, &error);
  NN_CHECK(out) << "cannot create a zip buffer: " << zip_error_strerror(&error);
  zip_source_keep(out);
  std::unique_ptr<zip_source_t, void (*)(zip_source_t*)> out_guard(out, zip_source_free);
  struct zip* archive = zip_open_from_source(out, ZIP_TRUNCATE, &error);
  NN_CHECK(archive) << "cannot create a zip archive: " << zip_error_strerror(&error);
  zip_error_fini(&error);
  try {
    for (const auto& m : members) {
      check_member_name(m.name, "<new archive>");
      zip_source_t* src = zip_source_buffer(archive, m.data.data(), m.data.size(), 0);
      NN_CHECK(src) << "zip member '" << m.name << "': " << zip_strerror(archive);
      zip_int64_t idx = zip_file_add(archive, m.name.c_str(), src, ZIP_FL_ENC_UTF_8);
      if (idx < 0) zip_source_free(src);
      NN_CHECK(idx >= 0) << "zip member '" << m.name << "': " << zip_strerror(archive);
      NN_CHECK(zip_set_file_compression(archive, zip_uint64_t(idx), ZIP_CM_STORE, 0) == 0)
          << "zip member '" << m.name << "': " << zip_strerror(archive);
    }
    NN_CHECK(zip_close(archive) == 0) << "cannot finish the zip archive: " << zip_strerror(archive);
  } catch (...) {
    zip_discard(archive);
    throw;
  }
  NN_CHECK(zip_source_open(out) == 0) << "cannot read the zip buffer back";
  zip_source_seek(out, 0, SEEK_END);
  zip_int64_t size = zip_source_tell(out);
  zip_source_seek(out, 0, SEEK_SET);
  std::string bytes(size_t(size > 0 ? size : 0), '\0');
  zip_int64_t got = bytes.empty() ? 0 : zip_source_read(out, bytes.data(), zip_uint64_t(bytes.size()));
  zip_source_close(out);
  NN_CHECK(got == zip_int64_t(bytes.size())) << "cannot read the zip buffer back";
  return bytes;
}

void write_zip(const std::string& path, const std::vector<ZipMember>& members) {
  std::string bytes = build_zip(members);
  write_file_atomic(path, bytes);
}

}  // namespace nn::formats
