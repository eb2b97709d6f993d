// Progress on stderr (a self-rewriting line on a terminal, sparse log lines otherwise; never on stdout), and
// the progress.txt of train, forward, profile and compare_with_cpu.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace nncli {

class Progress {
 public:
  // total <= 0: unknown total (only the count is shown).
  Progress(std::string label, int64_t total);
  ~Progress();  // finishes the line
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void update(int64_t done, const std::string& note = "");
  void finish();

 private:
  std::string label_;
  int64_t total_;
  bool tty_;
  bool finished_ = false;
  std::chrono::steady_clock::time_point last_;
};

// Clears a progress line currently shown on the terminal (the log sink calls this before printing).
void clear_progress_line();
// Whether progress is shown at all (off with -q).
void set_progress_enabled(bool enabled);

// progress.txt: one line "<state> (<pct>%)", rewritten at most once per second, emptied at start and end.
class ProgressFile {
 public:
  // enabled = false (the processes other than rank 0 under MPI): neither creates nor writes the file.
  explicit ProgressFile(std::string outdir, bool enabled = true);
  void update(const std::string& state, double fraction);
  void clear();

 private:
  std::string path_;
  bool enabled_;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace nncli
