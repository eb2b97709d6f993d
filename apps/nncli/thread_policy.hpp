// Process-wide thread settings: OpenMP defaults (wait policy, team size from affinity and cgroup quota)
// and --threads.
#pragma once

namespace nncli {
// CPUs this process may use: its affinity mask, capped by a cgroup CPU quota (cpu.max, rounded up).
int available_cpus();
// Applies `--threads N` (N >= 1) to the OpenMP runtime for the rest of the process (BLAS and oneDNN included),
// else the cgroup quota's CPUs when OMP_NUM_THREADS is unset; and, unless the user chose a wait policy
// (OMP_WAIT_POLICY, KMP_BLOCKTIME, KMP_LIBRARY), idle workers' spin time that follows the load
// (nn::enable_adaptive_wait).
void apply_thread_settings(int threads);
}  // namespace nncli
