// Leveled logging to a settable sink (stderr by default); stdout is reserved for results.
#pragma once
#include <functional>
#include <sstream>
#include <string>

namespace nn {

enum class LogLevel : int { kError = 0, kWarning = 1, kInfo = 2, kVerbose = 3, kDebug = 4 };

using LogSink = std::function<void(LogLevel, const std::string&)>;

void set_log_level(LogLevel level);
LogLevel log_level();
void set_log_sink(LogSink sink);  // nullptr restores the default stderr sink
void log_message(LogLevel level, const std::string& text);

namespace detail {
struct LogLine {
  LogLevel level;
  std::ostringstream os;
  explicit LogLine(LogLevel l) : level(l) {}
  ~LogLine() { log_message(level, os.str()); }
  template <class T>
  LogLine& operator<<(const T& v) {
    os << v;
    return *this;
  }
};
}  // namespace detail
}  // namespace nn

#define NN_LOG(level)                \
  if (::nn::log_level() < (level)) { \
  } else                             \
    ::nn::detail::LogLine(level)
#define NN_LOG_ERROR NN_LOG(::nn::LogLevel::kError)
#define NN_LOG_WARNING NN_LOG(::nn::LogLevel::kWarning)
#define NN_LOG_INFO NN_LOG(::nn::LogLevel::kInfo)
#define NN_LOG_VERBOSE NN_LOG(::nn::LogLevel::kVerbose)
#define NN_LOG_DEBUG NN_LOG(::nn::LogLevel::kDebug)
