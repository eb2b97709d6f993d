// run_queue_wait_ns: the sum over /proc/self/task/*/schedstat; QuietMeter: its growth against the wall time.
#include "ops/detail/run_queue.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace nn::ops {

int64_t run_queue_wait_ns() {
  DIR* tasks = opendir("/proc/self/task");
  if (!tasks) return -1;
  int64_t total = 0;
  bool any = false;
  while (const dirent* e = readdir(tasks)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    char path[sizeof "/proc/self/task//schedstat" + sizeof e->d_name], text[96];  // room for any entry name
    std::snprintf(path, sizeof path, "/proc/self/task/%s/schedstat", e->d_name);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;  // the thread ended since the listing
    const ssize_t got = read(fd, text, sizeof text - 1);
    close(fd);
    if (got <= 0) continue;
    text[got] = '\0';
    unsigned long long on_cpu = 0, waiting = 0;
    if (std::sscanf(text, "%llu %llu", &on_cpu, &waiting) != 2) continue;
    total += int64_t(waiting);
    any = true;
  }
  closedir(tasks);
  return any ? total : -1;
}

bool QuietMeter::measure() {
  const auto now = std::chrono::steady_clock::now();
  const int64_t wait_ns = run_queue_wait_ns();
  const bool known = wait_ns >= 0 && last_wait_ns_ >= 0;
  const double wall_ns = std::chrono::duration<double, std::nano>(now - last_).count();
  const bool quiet = known && double(wait_ns - last_wait_ns_) < kQuietWait * wall_ns;
  last_wait_ns_ = wait_ns;
  last_ = now;
  return quiet;
}

}  // namespace nn::ops
