// Atomic output files and bounded whole-file reads.
#include "formats/common/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "nn/core/error.hpp"

namespace nn::formats {

namespace {
std::string errno_text() { return std::strerror(errno); }
}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  NN_CHECK(!path_.empty()) << "empty output file name";
  std::vector<char> name(path_.begin(), path_.end());
  const char kSuffix[] = ".tmp.XXXXXX";
  name.insert(name.end(), kSuffix, kSuffix + sizeof(kSuffix));  // includes the terminating NUL
  fd_ = ::mkstemp(name.data());
  NN_CHECK(fd_ >= 0) << "'" << path_ << "': cannot create a temporary file beside it: " << errno_text();
  temp_path_ = name.data();
  ::fchmod(fd_, 0644);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void AtomicFile::write(std::string_view bytes) {
  NN_INTERNAL_CHECK(fd_ >= 0 && !committed_) << "write after commit";
  const char* p = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    NN_CHECK(n > 0) << "'" << path_ << "': write failed: " << errno_text();
    p += n;
    left -= size_t(n);
  }
}

void AtomicFile::commit() {
  NN_INTERNAL_CHECK(!committed_) << "commit twice";
  int fd = fd_;
  fd_ = -1;
  bool synced = ::fsync(fd) == 0 || errno == EINVAL;  // EINVAL: the file system cannot sync
  bool closed = ::close(fd) == 0;
  NN_CHECK(synced && closed) << "'" << path_ << "': cannot flush the file: " << errno_text();
  NN_CHECK(std::rename(temp_path_.c_str(), path_.c_str()) == 0)
      << "'" << path_ << "': cannot replace it: " << errno_text();
  committed_ = true;
}

void write_file_atomic(const std::string& path, std::string_view bytes) {
  AtomicFile file(path);
  file.write(bytes);
  file.commit();
}

std::string read_file(const std::string& path, uint64_t max_bytes) {
  struct stat st {};
  NN_CHECK(::stat(path.c_str(), &st) == 0) << "'" << path << "': cannot open: " << errno_text();
  NN_CHECK(S_ISREG(st.st_mode)) << "'" << path << "': not a regular file";
  NN_CHECK(uint64_t(st.st_size) <= max_bytes)
      << "'" << path << "': file is too large (" << st.st_size << " bytes, limit " << max_bytes << ")";
  std::ifstream in(path, std::ios::binary);
  NN_CHECK(in.good()) << "'" << path << "': cannot open: " << errno_text();
  std::string data(size_t(st.st_size), '\0');
  in.read(data.data(), std::streamsize(data.size()));
  NN_CHECK(in.gcount() == std::streamsize(data.size())) << "'" << path << "': read failed";
  return data;
}

}  // namespace nn::formats
