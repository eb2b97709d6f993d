// The output directory of `nncli train`: created on demand, locked against a second run, cleaned of the
// temporary files a killed run left, and its monitoring report trimmed when a run resumes.
#pragma once
#include <cstdint>
#include <string>

namespace nncli {

// Holds an exclusive lock on <outdir>/.nncli_train.lock for the life of a training run.
class OutdirLock {
 public:
  OutdirLock() = default;
  explicit OutdirLock(const std::string& outdir);  // throws nn::Error when another run holds it
  OutdirLock(OutdirLock&& other) noexcept;
  OutdirLock& operator=(OutdirLock&& other) noexcept;
  OutdirLock(const OutdirLock&) = delete;
  OutdirLock& operator=(const OutdirLock&) = delete;
  ~OutdirLock();

 private:
  int fd_ = -1;
};

// Creates outdir (with its parents) when missing, checks it is writable, locks it and removes the
// '<name>.tmp.XXXXXX' files an interrupted run left there. Returns the lock to keep while training.
OutdirLock prepare_outdir(const std::string& outdir);

// Keeps only the epoch blocks of monitoring_report.yml whose key is below first_epoch_key (the epochs a
// resumed run does not train again), so a resumed run never writes an epoch twice.
void trim_monitoring_report(const std::string& outdir, int64_t first_epoch_key);

}  // namespace nncli
