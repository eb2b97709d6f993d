// nncli's own getenv: OpenMP (and oneDNN) defaults that libraries read in their constructors, before main could
// set them.
#include "thread_policy.hpp"

#include <fcntl.h>
#include <omp.h>
#include <sched.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "nn/core/adaptive_wait.hpp"

extern "C" char** environ;

namespace nncli {
namespace {

// The value of `name` in the process environment, or nullptr (what glibc's getenv does).
const char* lookup(const char* name) {
  const size_t n = std::strlen(name);
  for (char** e = environ; e && *e; ++e)
    if (std::strncmp(*e, name, n) == 0 && (*e)[n] == '=') return *e + n + 1;
  return nullptr;
}

// A small file's first line, read without malloc (this runs inside other libraries' constructors).
bool read_line(const char* path, char* buf, size_t size) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t got = read(fd, buf, size - 1);
  close(fd);
  if (got <= 0) return false;
  buf[got] = '\0';
  return true;
}

// The cgroup CPU quota in CPUs (v2 cpu.max, else v1 cfs files); 0 when there is none.
double cgroup_quota_cpus() {
  char text[64];
  long long quota = -1, period = 0;
  if (read_line("/sys/fs/cgroup/cpu.max", text, sizeof text)) {
    if (text[0] != 'm' && std::sscanf(text, "%lld %lld", &quota, &period) != 2) quota = -1;
  } else if (read_line("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", text, sizeof text)) {
    quota = std::atoll(text);
    if (read_line("/sys/fs/cgroup/cpu/cpu.cfs_period_us", text, sizeof text)) period = std::atoll(text);
  }
  return quota > 0 && period > 0 ? double(quota) / double(period) : 0.0;
}

int affinity_cpus() {
  cpu_set_t set;
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : int(sysconf(_SC_NPROCESSORS_ONLN));
}

// Defaults for variables the user did not set:
// - GOMP_SPINCOUNT=1000 (libgomp; unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is set; LLVM's libomp gets a spin
//   time that follows the load instead, nn::enable_adaptive_wait): idle OpenMP workers spin a
//   microsecond or two, then sleep. On a busy machine a long spin burns the time slice the thread it waits
//   for needs (small ResNet batch 32 with two busy loops per core: 2348 ms per run with libgomp's default
//   spin, 256 ms with GOMP_SPINCOUNT=10000, 147 ms passive, 335 ms with one thread); sleeping at once
//   (OMP_WAIT_POLICY=PASSIVE) costs a wake-up per parallel region, which doubled MobileNetV2's batch-1
//   convolutions on two threads (4.5 ms passive, 2.3 ms with 1000 spins).
// - ONEDNN_JIT_PROFILE=0 and ONEDNN_ITT_TASK_LEVEL=0: oneDNN otherwise announces each JIT kernel to
//   profilers (VTune/perf hooks: a search of the library path for libJitPI.so) and marks every primitive
//   execution as an ITT task; a user who profiles with those tools sets the variables.
// - OMP_TOOL=disabled: LLVM's libomp otherwise looks for a tool library (libarcher.so) at start.
// - OMP_NUM_THREADS from the cgroup CPU quota when it allows fewer CPUs than the affinity mask (libgomp
//   itself counts the affinity mask only).
const char* policy_default(const char* name) {
  if (std::strcmp(name, "GOMP_SPINCOUNT") == 0) return lookup("OMP_WAIT_POLICY") ? nullptr : "1000";
  if (std::strcmp(name, "OMP_TOOL") == 0) return "disabled";
  if (std::strcmp(name, "ONEDNN_JIT_PROFILE") == 0 || std::strcmp(name, "ONEDNN_ITT_TASK_LEVEL") == 0) return "0";
  if (std::strcmp(name, "OMP_NUM_THREADS") == 0) {
    static char text[16];
    if (!text[0]) {
      const int affinity = affinity_cpus(), cpus = available_cpus();
      std::snprintf(text, sizeof text, "%d", cpus < affinity ? cpus : 0);
    }
    return text[0] != '0' ? text : nullptr;
  }
  return nullptr;
}

}  // namespace

int available_cpus() {
  int cpus = affinity_cpus();
  if (const double quota = cgroup_quota_cpus(); quota > 0) cpus = std::min(cpus, int(std::ceil(quota)));
  return cpus < 1 ? 1 : cpus;
}

void apply_thread_settings(int threads) {
  if (threads < 1 && !lookup("OMP_NUM_THREADS"))  // LLVM's libomp reads environ, not getenv's default
    if (const char* quota = policy_default("OMP_NUM_THREADS")) threads = std::atoi(quota);
  if (threads >= 1) omp_set_num_threads(threads);
  if (lookup("OMP_WAIT_POLICY") || lookup("KMP_BLOCKTIME") || lookup("KMP_LIBRARY")) return;
  // libomp reads its settings from the environment when it starts, at its first use (so a subcommand that
  // computes nothing does not start it): the quiet spin from the start (enable_adaptive_wait sets it), as regions
  // before the first forward pass (a dataset cache written on all threads) kept the default 200 ms (LeNet's first
  // run from PNG files: 1.04 s, not 0.82); and no thread binding, whose topology probe cost a LeNet infer 0.35 ms
  // and each team change a sched_setaffinity call.
  if (nn::enable_adaptive_wait()) setenv("KMP_AFFINITY", "disabled", 0);
}

}  // namespace nncli

// The executable's definitions come first in symbol lookup, so libgomp's constructor reads these.
extern "C" char* getenv(const char* name) noexcept {
  if (const char* value = nncli::lookup(name)) return const_cast<char*>(value);
  return const_cast<char*>(nncli::policy_default(name));
}
extern "C" char* secure_getenv(const char* name) noexcept { return getauxval(AT_SECURE) ? nullptr : getenv(name); }
