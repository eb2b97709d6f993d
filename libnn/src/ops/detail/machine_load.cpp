// read_cpu_ticks (/proc/stat and /proc/self/stat), quiet_share and QuietMeter.
#include "ops/detail/machine_load.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace nn::ops {
namespace {

// The start of a /proc file (up to size - 1 bytes, NUL-terminated); false where it cannot be read.
bool read_head(const char* path, char* text, size_t size) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t got = read(fd, text, size - 1);
  close(fd);
  if (got <= 0) return false;
  text[got] = '\0';
  return true;
}

int64_t machine_busy_ticks() {
  char text[256];
  unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
  if (!read_head("/proc/stat", text, sizeof text) ||
      std::sscanf(text, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system, &idle, &iowait, &irq,
                  &softirq, &steal) != 8)
    return -1;
  return int64_t(user + nice + system + irq + softirq + steal);
}

int64_t own_ticks() {
  char text[1024];
  if (!read_head("/proc/self/stat", text, sizeof text)) return -1;
  const char* rest = std::strrchr(text, ')');  // the command name may hold spaces and parentheses
  unsigned long long utime, stime;
  if (!rest ||
      std::sscanf(rest + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2)
    return -1;
  return int64_t(utime + stime);
}

}  // namespace

CpuTicks read_cpu_ticks() { return {machine_busy_ticks(), own_ticks()}; }

bool quiet_share(int64_t others, double wall_ticks) { return double(others) < 0.5 * wall_ticks; }

bool QuietMeter::measure() {
  const auto now = std::chrono::steady_clock::now();
  if (last_.machine_busy >= 0 && now - last_time_ < kMinSpan) return quiet_;
  const CpuTicks ticks = read_cpu_ticks();
  const bool known = ticks.machine_busy >= 0 && ticks.own >= 0 && last_.machine_busy >= 0 && last_.own >= 0;
  static const double ticks_per_second = double(sysconf(_SC_CLK_TCK));
  const double wall_ticks = std::chrono::duration<double>(now - last_time_).count() * ticks_per_second;
  quiet_ = known && quiet_share((ticks.machine_busy - last_.machine_busy) - (ticks.own - last_.own), wall_ticks);
  last_ = ticks;
  last_time_ = now;
  return quiet_;
}

}  // namespace nn::ops
