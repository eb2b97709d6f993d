// Log level and sink (stderr by default); every line is escaped for the terminal here, before any sink.
#include "nn/core/log.hpp"

#include <cstdio>
#include <mutex>

#include "nn/core/printable.hpp"

namespace nn {
namespace {
LogLevel g_level = LogLevel::kInfo;
LogSink g_sink;
std::mutex g_mutex;

const char* prefix(LogLevel l) {
  switch (l) {
    case LogLevel::kError: return "error: ";
    case LogLevel::kWarning: return "warning: ";
    default: return "";
  }
}
}  // namespace

void set_log_level(LogLevel level) { g_level = level; }
LogLevel log_level() { return g_level; }
void set_log_sink(LogSink sink) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_sink = std::move(sink);
}
void log_message(LogLevel level, const std::string& text) {
  const std::string line = printable(text);  // names from files must not drive the terminal
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_sink) {
    g_sink(level, line);
    return;
  }
  std::fprintf(stderr, "nncli: %s%s\n", prefix(level), line.c_str());
}
}  // namespace nn
