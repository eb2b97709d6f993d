// Atomic output files and bounded whole-file reads.
#include "formats/common/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "nn/core/error.hpp"

namespace nn::formats {

namespace {
std::string errno_text() { return std::strerror(errno); }

// Temporary files of live AtomicFiles, for removal from a signal handler: fixed slots of strdup'ed paths
// claimed and released with atomic exchanges (no locks, no allocation in the handler).
constexpr size_t kTempSlots = 64;
std::atomic<char*> g_temp_paths[kTempSlots];

int claim_temp_slot(const std::string& path) {
  char* copy = ::strdup(path.c_str());
  for (size_t i = 0; copy && i < kTempSlots; ++i) {
    char* expected = nullptr;
    if (g_temp_paths[i].compare_exchange_strong(expected, copy)) return int(i);
  }
  std::free(copy);
  return -1;  // more than kTempSlots at once: the next run's cleanup removes it if a signal comes
}

void release_temp_slot(int slot) {
  if (slot >= 0) std::free(g_temp_paths[size_t(slot)].exchange(nullptr));
}

void on_terminating_signal(int sig) {
  remove_live_temp_files();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}
}  // namespace

void remove_live_temp_files() noexcept {
  for (auto& slot : g_temp_paths)
    if (char* p = slot.exchange(nullptr)) ::unlink(p);  // the path is leaked: the process is ending
}

void install_temp_file_cleanup() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, on_terminating_signal);
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  NN_CHECK(!path_.empty()) << "empty output file name";
  std::vector<char> name(path_.begin(), path_.end());
  const char kSuffix[] = ".tmp.XXXXXX";
  name.insert(name.end(), kSuffix, kSuffix + sizeof(kSuffix));  // includes the terminating NUL
  fd_ = ::mkstemp(name.data());
  NN_CHECK(fd_ >= 0) << "'" << path_ << "': cannot create a temporary file beside it: " << errno_text();
  temp_path_ = name.data();
  temp_slot_ = claim_temp_slot(temp_path_);
  ::fchmod(fd_, 0644);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
  release_temp_slot(temp_slot_);
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
  release_temp_slot(temp_slot_);
  temp_slot_ = -1;
}

void write_file_atomic(const std::string& path, std::string_view bytes) {
  AtomicFile file(path);
  file.write(bytes);
  file.commit();
}

namespace {

// A file descriptor closed when the scope ends, also when a check throws.
struct ScopedFd {
  int fd = -1;
  ~ScopedFd() {
    if (fd >= 0) ::close(fd);
  }
};

// Opens a regular file for reading. O_NONBLOCK makes opening a FIFO return at once, so it is refused
// by the fstat check instead of blocking until a writer appears.
void open_regular(const std::string& path, const std::string& what, ScopedFd* file, struct stat* st) {
  file->fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  NN_CHECK(file->fd >= 0) << what << ": cannot open: " << errno_text();
  NN_CHECK(::fstat(file->fd, st) == 0 && S_ISREG(st->st_mode)) << what << ": not a regular file";
}

// Reads exactly bytes.size() bytes at offset.
void read_exactly(int fd, uint64_t offset, std::string& bytes, const std::string& what) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::pread(fd, bytes.data() + done, bytes.size() - done, off_t(offset + done));
    if (n < 0 && errno == EINTR) continue;
    NN_CHECK(n > 0) << what << ": read failed: " << (n < 0 ? errno_text() : "the file ended early");
    done += size_t(n);
  }
}

}  // namespace

void require_regular_file(const std::string& path) {
  ScopedFd file;
  struct stat st {};
  open_regular(path, "'" + path + "'", &file, &st);
}

ReadableFile::ReadableFile(const std::string& path, uint64_t max_bytes) {
  const std::string what = "'" + path + "'";
  ScopedFd file;
  struct stat st {};
  open_regular(path, what, &file, &st);
  NN_CHECK(uint64_t(st.st_size) <= max_bytes)
      << what << ": file is too large (" << st.st_size << " bytes, limit " << max_bytes << ")";
  std::swap(fd_, file.fd);
  size_ = uint64_t(st.st_size);
}

ReadableFile::~ReadableFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::string read_file(const std::string& path, uint64_t max_bytes) {
  ReadableFile file(path, max_bytes);
  std::string data(size_t(file.size()), '\0');
  read_exactly(file.fd(), 0, data, "'" + path + "'");
  return data;
}

std::string read_file_range(const std::string& path, uint64_t offset, int64_t length, const std::string& what) {
  ScopedFd file;
  struct stat st {};
  open_regular(path, what, &file, &st);
  const uint64_t size = uint64_t(st.st_size);
  // Compared without offset + length, which can overflow (offset 2^63 - 8, length 16).
  NN_CHECK(offset <= size && (length < 0 || uint64_t(length) <= size - offset))
      << what << ": range at offset " << offset << " of " << length << " bytes lies outside the file (" << size
      << " bytes)";
  const uint64_t count = length < 0 ? size - offset : uint64_t(length);
  NN_CHECK(count <= kMaxFileBytes) << what << ": " << count << " bytes is too large (limit " << kMaxFileBytes
                                   << ")";
  std::string data(size_t(count), '\0');
  read_exactly(file.fd, offset, data, what);
  return data;
}

}  // namespace nn::formats
