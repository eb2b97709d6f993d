// Progress on stderr (rewritten in place on a terminal, at most every 5 seconds as a log line otherwise) and
// progress.txt.
#include "common/progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "nn/core/log.hpp"

namespace nncli {

namespace fs = std::filesystem;

namespace {
bool g_enabled = true;
bool g_line_shown = false;  // a progress line without newline is on the terminal

std::string format_line(const std::string& label, int64_t done, int64_t total, const std::string& note) {
  std::string line = label + ": " + std::to_string(done);
  if (total > 0) {
    char pct[32];
    std::snprintf(pct, sizeof(pct), " / %lld (%.2f%%)", static_cast<long long>(total),
                  100.0 * double(done) / double(total));
    line += pct;
  }
  if (!note.empty()) line += " " + note;
  return line;
}
}  // namespace

void set_progress_enabled(bool enabled) { g_enabled = enabled; }

void clear_progress_line() {
  if (!g_line_shown) return;
  std::fputs("\r\033[K", stderr);
  g_line_shown = false;
}

Progress::Progress(std::string label, int64_t total)
    : label_(std::move(label)), total_(total), tty_(::isatty(STDERR_FILENO) == 1), last_() {}

Progress::~Progress() { finish(); }

void Progress::update(int64_t done, const std::string& note) {
  if (!g_enabled || finished_) return;
  const auto now = std::chrono::steady_clock::now();
  const bool last_step = total_ > 0 && done >= total_;
  if (tty_) {
    if (!last_step && now - last_ < std::chrono::milliseconds(100)) return;
    std::fprintf(stderr, "\r\033[K%s", format_line(label_, done, total_, note).c_str());
    std::fflush(stderr);
    g_line_shown = true;
  } else {
    if (!last_step && now - last_ < std::chrono::seconds(5)) return;
    NN_LOG_INFO << format_line(label_, done, total_, note);
  }
  last_ = now;
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (tty_ && g_line_shown) {
    std::fputs("\n", stderr);
    g_line_shown = false;
  }
}

ProgressFile::ProgressFile(std::string outdir, bool enabled)
    : path_((fs::path(outdir) / "progress.txt").string()), enabled_(enabled) {
  clear();
}

void ProgressFile::update(const std::string& state, double fraction) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::seconds(1)) return;
  last_ = now;
  char pct[32];
  std::snprintf(pct, sizeof(pct), " (%.2f%%)", 100.0 * fraction);
  std::ofstream f(path_, std::ios::trunc);
  f << state << pct;
}

void ProgressFile::clear() {
  if (enabled_) std::ofstream f(path_, std::ios::trunc);
}

}  // namespace nncli
