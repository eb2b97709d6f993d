// The output directory of `nncli train`: creation, locking, stale temporary files, report trimming.
#include "train/train_outdir.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <regex>
#include <sstream>

#include "formats/common/atomic_file.hpp"
#include "nn/core/error.hpp"
#include "nn/core/log.hpp"

namespace nncli {

namespace fs = std::filesystem;

namespace {
std::string in_quotes(const std::string& s) { return "'" + s + "'"; }
}  // namespace

OutdirLock::OutdirLock(const std::string& outdir) {
  const std::string path = (fs::path(outdir) / ".nncli_train.lock").string();
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  NN_CHECK(fd_ >= 0) << "output directory " << in_quotes(outdir) << " is not writable: " << std::strerror(errno);
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    NN_CHECK(err != EWOULDBLOCK) << "output directory " << in_quotes(outdir)
                                 << " is in use by another 'nncli train' run; wait for it or choose another -o";
    NN_FAIL(nn::ErrorCode::kInvalid) << "cannot lock the output directory " << in_quotes(outdir) << ": "
                                     << std::strerror(err);
  }
}

OutdirLock::OutdirLock(OutdirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

OutdirLock& OutdirLock::operator=(OutdirLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

OutdirLock::~OutdirLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

OutdirLock prepare_outdir(const std::string& outdir) {
  std::error_code ec;
  fs::create_directories(outdir, ec);
  NN_CHECK(fs::is_directory(outdir, ec))
      << "cannot create the output directory " << in_quotes(outdir) << (ec ? ": " + ec.message() : std::string());
  NN_CHECK(::access(outdir.c_str(), W_OK) == 0)
      << "output directory " << in_quotes(outdir) << " is not writable: " << std::strerror(errno);
  OutdirLock lock(outdir);
  // Only now, holding the lock, are temporary files surely left by a run that is gone.
  static const std::regex temp_name(R"(.+\.tmp\.[A-Za-z0-9]{6})");
  for (const auto& entry : fs::directory_iterator(outdir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!std::regex_match(name, temp_name) || !entry.is_regular_file(ec)) continue;
    if (fs::remove(entry.path(), ec))
      NN_LOG_INFO << "Removed " << in_quotes(name) << " left by an interrupted run";
  }
  return lock;
}

void trim_monitoring_report(const std::string& outdir, int64_t first_epoch_key) {
  const std::string path = (fs::path(outdir) / "monitoring_report.yml").string();
  std::error_code ec;
  if (!fs::exists(path, ec)) return;
  std::istringstream in(nn::formats::read_file(path));
  std::string kept, line;
  bool keep = true;
  bool dropped = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != ' ' && line.back() == ':') {  // "<epoch>:" starts a block
      int64_t key = 0;
      const auto [end, err] = std::from_chars(line.data(), line.data() + line.size() - 1, key);
      keep = err != std::errc() || end != line.data() + line.size() - 1 || key < first_epoch_key;
    }
    if (keep)
      kept += line + "\n";
    else
      dropped = true;
  }
  if (dropped) nn::formats::write_file_atomic(path, kept);
}

}  // namespace nncli
