// Atomic output files (temp file beside the target, then rename) and bounded whole-file reads.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace nn::formats {

// Largest file (or archive member) the format layer reads into memory: 4 GiB.
constexpr uint64_t kMaxFileBytes = uint64_t(4) << 30;

// A temporary file '<path>.tmp.XXXXXX' in the target's directory. commit() renames it over the
// target; if commit() is never reached (an exception unwinds), the destructor removes it.
class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }
  void write(std::string_view bytes);  // appends to the temporary file
  void commit();

 private:
  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  int temp_slot_ = -1;  // its entry in the signal-time cleanup list
  bool committed_ = false;
};

// Removes every temporary file of a live AtomicFile. Async-signal-safe: for signal handlers, which then
// end the process (install_temp_file_cleanup does both for SIGINT, SIGTERM and SIGHUP).
void remove_live_temp_files() noexcept;
// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the live temporary files and then end the
// process by the same signal (its exit status stays what the shell expects).
void install_temp_file_cleanup();

// Writes bytes to path atomically (temp + rename). Throws nn::Error naming the path on failure.
void write_file_atomic(const std::string& path, std::string_view bytes);

// A regular file open for reading, closed by the destructor: refuses files larger than max_bytes and
// anything that is not a regular file (a FIFO, a device or a directory never blocks or is read).
class ReadableFile {
 public:
  explicit ReadableFile(const std::string& path, uint64_t max_bytes = kMaxFileBytes);
  ~ReadableFile();
  ReadableFile(const ReadableFile&) = delete;
  ReadableFile& operator=(const ReadableFile&) = delete;

  int fd() const { return fd_; }
  uint64_t size() const { return size_; }  // at opening

 private:
  int fd_ = -1;
  uint64_t size_ = 0;
};

// Reads a whole regular file, checked as ReadableFile checks it.
std::string read_file(const std::string& path, uint64_t max_bytes = kMaxFileBytes);

// Throws unless path names a regular file that can be opened for reading (never blocks on a FIFO).
void require_regular_file(const std::string& path);

// Reads `length` bytes at `offset` of a regular file (length < 0: up to its end), after checking the range
// against the file's real size without overflow. `what` starts every error message.
std::string read_file_range(const std::string& path, uint64_t offset, int64_t length, const std::string& what);

}  // namespace nn::formats
