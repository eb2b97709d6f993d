// Process-wide thread settings: OpenMP defaults (wait policy, team size from affinity and cgroup quota)
// and --threads.
#pragma once

namespace nncli {
// CPUs this process may use: its affinity mask, capped by a cgroup CPU quota (cpu.max, rounded up).
int available_cpus();
// Applies `--threads N` (N >= 1) to the OpenMP runtime for the rest of the process (BLAS and oneDNN included).
void set_thread_count(int threads);
}  // namespace nncli
